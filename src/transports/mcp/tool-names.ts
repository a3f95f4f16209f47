import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";

/** What MCP clients accept as a tool or prompt name. */
const MCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * An action's tool (and prompt) name: `mcp.name` when it gives one, else the action's name with
 * `:` as `-`, since MCP names allow letters, digits, `_`, `-` and `.`.
 */
export function toolNameOf(registered: RegisteredAction): string {
  const name = registered.action.mcp?.name;
  if (name === undefined) return registered.name.replace(/:/g, "-");
  if (!MCP_NAME.test(name)) {
    throw new TypedError({
      message: `Action "${registered.name}": mcp.name "${name}" is not an MCP name (1 to 128 letters, digits, "_", "-" or ".")`,
      type: ErrorType.SERVER_INITIALIZATION,
    });
  }
  return name;
}

/** Maps tool names back to actions, refusing two actions that would share one tool name. */
export function toolTable(actions: readonly RegisteredAction[]): Map<string, RegisteredAction> {
  const table = new Map<string, RegisteredAction>();
  for (const registered of actions) {
    const name = toolNameOf(registered);
    const clash = table.get(name);
    if (clash) {
      throw new TypedError({
        message: `Actions "${clash.name}" and "${registered.name}" would both be the MCP tool "${name}"`,
        type: ErrorType.SERVER_INITIALIZATION,
      });
    }
    table.set(name, registered);
  }
  return table;
}
