import { createServer, Server, Socket } from "node:net";
import { freePort } from "./free-port";

/**
 * A TCP relay in front of a real service, on a port of its own, to make the service misbehave
 * without touching it: `freeze()` keeps the connections open but drops everything (a hung
 * server), `cut()` drops every connection and refuses new ones (a stopped server), `restore()`
 * listens again on the same port.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private frozen = false;

  private constructor(
    readonly port: number,
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(await freePort(), targetHost, targetPort);
    await proxy.restore();
    return proxy;
  }

  get cutOff(): boolean {
    return this.server === undefined;
  }

  freeze(): void {
    this.frozen = true;
  }

  async restore(): Promise<void> {
    if (this.server) return;
    this.frozen = false;
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    const upstream = new Socket();
    upstream.connect(this.targetPort, this.targetHost);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.on("data", (chunk) => {
        if (!this.frozen) to.write(chunk);
      });
      from.on("close", () => {
        this.sockets.delete(from);
        to.destroy();
      });
      from.on("error", () => undefined);
    }
  }
}
