import type { ActionDefinition, ActionTransport } from "./action";
import { CONNECTION_TYPE } from "./constants";
import { ErrorType, TypedError } from "./errors";

/**
 * Every transport, in the order `herald actions` lists them. An action that declares no
 * `transports` allows them all, which is the interface contract: WebSocket and the CLI reach every
 * action, HTTP the ones with a `web` route, tasks the ones with `task`, MCP what `mcp` enables.
 */
export const ALL_TRANSPORTS: readonly CONNECTION_TYPE[] = [
  CONNECTION_TYPE.web,
  CONNECTION_TYPE.websocket,
  CONNECTION_TYPE.cli,
  CONNECTION_TYPE.task,
  CONNECTION_TYPE.mcp,
];

const KNOWN = new Set<string>(ALL_TRANSPORTS);

/** Whether a call arriving on `transport` may run `action`; the dispatcher refuses the rest as unknown. */
export function allowsTransport(action: ActionDefinition, transport: ActionTransport): boolean {
  return action.transports === undefined || action.transports.includes(transport);
}

/** Whether the `mcp` member makes the action a tool, a resource, a prompt or an app; a tool by default. */
function onMcp(action: ActionDefinition): boolean {
  const { mcp } = action;
  return mcp?.tool !== false || Boolean(mcp.resource) || Boolean(mcp.prompt) || Boolean(mcp.app);
}

/** The transports that actually reach the action: allowed, and (web, task, MCP) declared by their member. */
export function servingTransports(action: ActionDefinition): CONNECTION_TYPE[] {
  return ALL_TRANSPORTS.filter((transport) => {
    if (!allowsTransport(action, transport)) return false;
    if (transport === CONNECTION_TYPE.web) return Boolean(action.web);
    if (transport === CONNECTION_TYPE.task) return Boolean(action.task);
    if (transport === CONNECTION_TYPE.mcp) return onMcp(action);
    return true;
  });
}

function bootError(action: ActionDefinition, source: string, problem: string): TypedError {
  return new TypedError({
    message: `Action "${action.name}" in ${source} ${problem}`,
    type: ErrorType.SERVER_INITIALIZATION,
    key: "transports",
    value: action.transports,
  });
}

/** Refuses at boot a `transports` list that names no transport, or that contradicts `web`, `task` or `mcp`. */
export function checkTransports(action: ActionDefinition, source: string): void {
  const { transports } = action;
  if (transports === undefined) return;
  if (!Array.isArray(transports) || transports.length === 0) {
    throw bootError(action, source, `must list at least one transport in "transports" (${ALL_TRANSPORTS.join(", ")})`);
  }
  const unknown = transports.filter((transport) => !KNOWN.has(transport));
  if (unknown.length > 0) {
    throw bootError(action, source, `lists unknown transports ${unknown.map((name) => `"${String(name)}"`).join(", ")}: use ${ALL_TRANSPORTS.join(", ")}`);
  }
  const contradictions: [boolean, ActionTransport, string][] = [
    [Boolean(action.web), CONNECTION_TYPE.web, "a web route"],
    [Boolean(action.task), CONNECTION_TYPE.task, "a task"],
    [action.mcp !== undefined && onMcp(action), CONNECTION_TYPE.mcp, "MCP exposure in \"mcp\""],
  ];
  for (const [declared, transport, what] of contradictions) {
    if (declared && !transports.includes(transport)) {
      throw bootError(action, source, `declares ${what} but its "transports" leave out "${transport}"`);
    }
  }
}
