import type { ActionDefinition } from "../core/action";
import type { ActionMiddleware } from "../core/middleware";
import { ActionRegistry } from "../core/registry";
import type { ActionSource } from "./action-source";

/** The middleware around each action: the registry's resolved instances, or the instances an action lists. */
export function middlewareByAction(source: ActionSource): Map<string, readonly ActionMiddleware[]> {
  const items = source instanceof ActionRegistry ? source.list() : [...source];
  const byAction = new Map<string, readonly ActionMiddleware[]>();
  for (const item of items) {
    if ("run" in item) byAction.set(item.name, listedInstances(item));
    else byAction.set(item.name, item.middleware);
  }
  return byAction;
}

function listedInstances(action: ActionDefinition): ActionMiddleware[] {
  // A class not yet resolved cannot say what it requires; a registry source has them resolved.
  return (action.middleware ?? []).filter((reference): reference is ActionMiddleware => typeof reference === "object");
}
