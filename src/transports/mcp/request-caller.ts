import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The caller of the HTTP request an MCP message came in, for the calls it makes: the SDK hands
 * its handlers the request's headers but not its socket, so the address travels beside them.
 */
export const requestCaller = new AsyncLocalStorage<{ remoteAddress: string | undefined }>();
