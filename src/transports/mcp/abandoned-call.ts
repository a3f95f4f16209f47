import { clientGone } from "../../core/client-gone";

/** How an MCP client abandons a call, as its client-gone message says it. */
const HOW = {
  cancelled: "cancelled the call",
  closed: "closed its connection before the answer",
  "cancelled or closed": "cancelled the call or closed its connection",
} as const;

/**
 * Aborts a call its MCP client abandoned: it ends as client gone, as an HTTP or WebSocket call whose client left, so no one waits
 * for its answer and the abort is not counted as the server's failure.
 */
export function abortAbandoned(controller: AbortController, how: keyof typeof HOW): void {
  controller.abort(clientGone(`The MCP client ${HOW[how]}`));
}
