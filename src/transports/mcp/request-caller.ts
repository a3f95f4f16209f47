import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingHttpHeaders } from "node:http";
import type { ConnectionAuth, ConnectionSession } from "../../core/connection";
import type { CallerCalls } from "./in-flight-calls";

/**
 * The HTTP request an MCP message came in, for the calls it makes: the SDK hands its handlers a
 * web `Request` built from it, not the socket, so the caller's address, the headers as Node read
 * them and the caller's in-flight calls travel beside it. Absent over stdio.
 */
export const requestCaller = new AsyncLocalStorage<{
  /** The HTTP request's id (X-Request-Id), which every line about its messages carries. */
  requestId: string | undefined;
  /** The HTTP response: marked as an action call's once a message runs one, so it gets no access line. */
  response: object;
  remoteAddress: string | undefined;
  headers: IncomingHttpHeaders;
  inFlight: CallerCalls;
  /** The verified access token the request carried, with OAuth configured. */
  auth?: ConnectionAuth;
  /** The session a token of the built-in authorization server stands for. */
  session?: ConnectionSession;
  /**
   * Set for a lone tool call that came without a token where an authorization server is
   * configured: the tool call marks it when the action refused the caller as not signed in.
   */
  signIn?: { needed: boolean; tool: string };
}>();
