import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";

/** MCP tool names allow letters, digits, `_`, `-` and `.`; `:` becomes `-`. */
export function toolNameOf(actionName: string): string {
  return actionName.replace(/:/g, "-");
}

/** Maps tool names back to actions, refusing two actions that would share one tool name. */
export function toolTable(actions: readonly RegisteredAction[]): Map<string, RegisteredAction> {
  const table = new Map<string, RegisteredAction>();
  for (const registered of actions) {
    const name = toolNameOf(registered.name);
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
