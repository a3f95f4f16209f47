import WebSocket from "ws";
import { ScenarioSkipped } from "../lib/scenario";
import { ECHO_PARAMS } from "../shared/echo";
import { closeSocket } from "./ws-round-trips";

/**
 * One action round trip on `url`, or a ScenarioSkipped saying why not: the WebSocket scenarios
 * run only once Herald's WebSocket transport answers the action message.
 */
export async function probeWebSocket(url: string, timeoutMs = 5000): Promise<void> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  try {
    const reply = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once("open", () =>
        socket.send(JSON.stringify({ messageType: "action", action: "bench:echo", messageId: "probe", params: ECHO_PARAMS })),
      );
      socket.once("message", (data) => {
        clearTimeout(timer);
        resolve(String(data));
      });
    });
    const parsed = JSON.parse(reply) as { messageId?: unknown; response?: unknown };
    if (parsed.messageId !== "probe" || parsed.response === undefined) throw new Error(`unexpected reply ${reply.slice(0, 300)}`);
  } catch (error) {
    throw new ScenarioSkipped(`Herald's WebSocket transport did not answer an action message on ${url}: ${(error as Error).message}`);
  } finally {
    await closeSocket(socket);
  }
}
