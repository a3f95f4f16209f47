/**
 * herald/client: a typed client of a Herald app, for browsers and Node.js. It imports nothing of
 * the server: its types come from the module `herald generate client-types` writes.
 */
export { createClient } from "./create-client.js";
export type { CallOptions, ClientOptions, HeraldClient } from "./create-client.js";
export { HeraldClientError } from "./client-error.js";
export type { ClientErrorBody, ClientErrorIssue, TypedClientError } from "./client-error.js";
export type {
  ClientActionShape,
  ClientActions,
  ClientChannelShape,
  ClientChannels,
  ClientErrorShape,
  HttpActionName,
  SocketActionName,
  StreamingActionName,
} from "./action-types.js";
export { SocketClosedError } from "./socket-closed-error.js";
export type { HeraldSocket, SocketCallOptions, SocketCallResult, SocketEvents, SocketOptions } from "./socket-client.js";
export type { ReconnectOptions } from "./reconnect-delay.js";
