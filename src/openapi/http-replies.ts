import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "../core/error-body";
import { ErrorType, TypedError } from "../core/errors";

/** The request's path, as sent: Express keeps it in `originalUrl` when a mount strips its own path. */
export function requestPath(request: IncomingMessage): string {
  const raw = (request as IncomingMessage & { originalUrl?: string }).originalUrl ?? request.url ?? "/";
  return raw.split("?")[0]!;
}

export function sendError(response: ServerResponse, error: TypedError, production: boolean, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(errorBody(error, production));
  response.writeHead(error.status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}

/** Answers 405 and returns false unless the request is a GET or a HEAD. */
export function acceptOnlyReads(request: IncomingMessage, response: ServerResponse, production: boolean): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  const error = new TypedError({
    message: `${request.method} is not allowed here; use GET`,
    type: ErrorType.CONNECTION_METHOD_NOT_ALLOWED,
    key: "method",
    value: request.method,
  });
  sendError(response, error, production, { Allow: "GET, HEAD" });
  return false;
}

export function sendNotFound(request: IncomingMessage, response: ServerResponse, production: boolean): void {
  const path = requestPath(request);
  sendError(response, new TypedError({ message: `Nothing is served at ${path}`, type: ErrorType.CONNECTION_NOT_FOUND, key: "path", value: path }), production);
}

/** Sends a body with its headers; a HEAD request gets the headers only. */
export function sendContent(request: IncomingMessage, response: ServerResponse, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(200, { ...headers, "Content-Length": Buffer.byteLength(body) });
  response.end(request.method === "HEAD" ? undefined : body);
}
