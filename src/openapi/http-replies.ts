import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorType, TypedError } from "../core/errors";
import type { ResponseCodec } from "../core/response-codec";

/** The request's path, as sent: Express keeps it in `originalUrl` when a mount strips its own path. */
export function requestPath(request: IncomingMessage): string {
  const raw = (request as IncomingMessage & { originalUrl?: string }).originalUrl ?? request.url ?? "/";
  return raw.split("?")[0]!;
}

export function sendError(response: ServerResponse, error: TypedError, codec: ResponseCodec, headers: Record<string, string> = {}): void {
  const body = codec.errorText(error);
  response.writeHead(error.status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}

/** Answers 405 and returns false unless the request is a GET or a HEAD. */
export function acceptOnlyReads(request: IncomingMessage, response: ServerResponse, codec: ResponseCodec): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  const error = new TypedError({
    message: `${request.method} is not allowed here; use GET`,
    type: ErrorType.CONNECTION_METHOD_NOT_ALLOWED,
    key: "method",
    value: request.method,
  });
  sendError(response, error, codec, { Allow: "GET, HEAD" });
  return false;
}

export function sendNotFound(request: IncomingMessage, response: ServerResponse, codec: ResponseCodec): void {
  const path = requestPath(request);
  sendError(response, new TypedError({ message: `Nothing is served at ${path}`, type: ErrorType.CONNECTION_NOT_FOUND, key: "path", value: path }), codec);
}

/** Sends a body with its headers; a HEAD request gets the headers only. */
export function sendContent(request: IncomingMessage, response: ServerResponse, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(200, { ...headers, "Content-Length": Buffer.byteLength(body) });
  response.end(request.method === "HEAD" ? undefined : body);
}
