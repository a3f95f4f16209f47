import { Agent, request } from "node:http";
import { connect } from "node:net";

/** One GET over `agent`, with whether it went over a socket the agent kept alive. */
export function getOver(agent: Agent, url: string): Promise<{ status: number; connection: string | undefined; body: any; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { agent }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, connection: response.headers.connection, body: JSON.parse(text), reusedSocket: sent.reusedSocket }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

/** Whether the listener at `url` refuses new connections, as it does once it has stopped accepting. */
export function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}
