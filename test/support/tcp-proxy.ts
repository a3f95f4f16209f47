import { connect, createServer, Server, Socket } from "node:net";
import type { AddressInfo, NetConnectOpts } from "node:net";

/**
 * A TCP relay in front of a real service, on a port the OS gave it, to make the service misbehave
 * without touching it: `freeze()` keeps the connections open but drops everything (a hung
 * server), `cut()` drops every connection and resets new ones (a stopped server),
 * `refuseNew()` keeps relaying the open connections but resets new ones (a server out of
 * connections, or one a new client reaches while it restarts), `hangUpNewOnRequest()` accepts new
 * connections and resets each at its first request (a server that dies as it is asked), and
 * `restore()` relays again. The port stays bound from `start` to `close`, so no other process can take it
 * while the service is "down".
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  private refusing = false;
  private hangingUp = false;

  private constructor(
    private readonly server: Server,
    private readonly target: NetConnectOpts,
  ) {
    server.on("connection", (client) => this.accept(client));
  }

  static async start(target: NetConnectOpts): Promise<TcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return new TcpProxy(server, target);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  freeze(): void {
    this.frozen = true;
  }

  cut(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  refuseNew(): void {
    this.refusing = true;
  }

  hangUpNewOnRequest(): void {
    this.hangingUp = true;
  }

  restore(): void {
    this.hangingUp = false;
    this.refusing = false;
    this.frozen = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.refusing) {
      client.on("error", () => undefined);
      client.resetAndDestroy();
      return;
    }
    if (this.hangingUp) {
      client.on("error", () => undefined);
      client.once("data", () => client.resetAndDestroy());
      return;
    }
    this.relay(client, connect(this.target));
  }

  private relay(client: Socket, upstream: Socket): void {
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
