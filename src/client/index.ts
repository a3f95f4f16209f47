/**
 * herald/client: a typed client of a Herald app, for browsers and Node.js. It imports nothing of
 * the server: its types come from the module `herald generate client-types` writes.
 */
export { createClient } from "./create-client";
export type { CallOptions, ClientOptions, HeraldClient } from "./create-client";
export { HeraldClientError } from "./client-error";
export type { ClientErrorBody, ClientErrorIssue, TypedClientError } from "./client-error";
export type {
  ClientActionShape,
  ClientActions,
  ClientChannelShape,
  ClientChannels,
  ClientErrorShape,
  HttpActionName,
  SocketActionName,
  StreamingActionName,
} from "./action-types";
export { SocketClosedError } from "./socket-closed-error";
export type { HeraldSocket, SocketCallOptions, SocketCallResult, SocketEvents, SocketOptions } from "./socket-client";
export type { ReconnectOptions } from "./reconnect-delay";
