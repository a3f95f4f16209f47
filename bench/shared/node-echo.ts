import type { IncomingMessage, ServerResponse } from "node:http";
import { ECHO_PATH, echoInputs, echoResponse } from "./echo";
import { countRequest } from "./request-counter";

/** The floor: `node:http` alone, routing by hand, with the same zod parse and JSON. */
export function nodeEcho(req: IncomingMessage, res: ServerResponse): void {
  countRequest();
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (req.method === "GET" && path === ECHO_PATH) {
    const query = Object.fromEntries(new URLSearchParams(queryAt === -1 ? "" : url.slice(queryAt + 1)));
    const parsed = echoInputs.safeParse(query);
    const [status, body] = parsed.success ? [200, echoResponse(parsed.data)] : [422, { error: parsed.error.issues }];
    const text = JSON.stringify(body);
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
    return void res.end(text);
  }
  res.writeHead(path === "/ready" ? 200 : 404).end();
}
