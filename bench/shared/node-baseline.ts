import type { IncomingMessage, ServerResponse } from "node:http";
import { ECHO_PATH, echoInputs, echoResponse } from "./echo";
import { HELLO_PATH, helloResponse } from "./hello";
import { countRequest } from "./request-counter";

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** The floor: `node:http` alone, routing by hand, with the same zod parse and JSON. */
export function nodeBaseline(req: IncomingMessage, res: ServerResponse): void {
  countRequest();
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (req.method === "GET" && path === ECHO_PATH) {
    const query = Object.fromEntries(new URLSearchParams(queryAt === -1 ? "" : url.slice(queryAt + 1)));
    const parsed = echoInputs.safeParse(query);
    return parsed.success ? sendJson(res, 200, echoResponse(parsed.data)) : sendJson(res, 422, { error: parsed.error.issues });
  }
  if (req.method === "GET" && path === HELLO_PATH) return sendJson(res, 200, helloResponse());
  res.writeHead(path === "/ready" ? 200 : 404).end();
}
