import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { echoInputs, echoResponse } from "../shared/echo";
import { countRequest } from "../shared/request-counter";
import { listenFromEnv } from "./listen";

/**
 * The raw `ws` baseline: on /ws, the same action message in, the same zod parse, the same
 * `{ messageId, response }` out. Any HTTP request answers 200, for the runner's readiness check.
 */
const server = createServer((_req, res) => void res.writeHead(200).end("ok"));
const wss = new WebSocketServer({ server, path: "/ws", perMessageDeflate: false });

wss.on("connection", (socket) => {
  socket.on("message", (data) => {
    let message: { messageType?: unknown; action?: unknown; messageId?: unknown; params?: unknown };
    try {
      message = JSON.parse(String(data));
    } catch {
      return void socket.send(JSON.stringify({ error: { message: "A message must be JSON" } }));
    }
    const { messageId } = message;
    if (message.messageType !== "action" || message.action !== "bench:echo") {
      return void socket.send(JSON.stringify({ messageId, error: { message: "Unknown action" } }));
    }
    countRequest();
    const parsed = echoInputs.safeParse(message.params ?? {});
    if (!parsed.success) return void socket.send(JSON.stringify({ messageId, error: { issues: parsed.error.issues } }));
    socket.send(JSON.stringify({ messageId, response: echoResponse(parsed.data) }));
  });
});

listenFromEnv(server);
