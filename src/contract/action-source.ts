import type { ActionDefinition } from "../core/action";
import { ActionRegistry, RegisteredAction } from "../core/registry";

/**
 * What the schema helpers (the OpenAPI document, the client types, the actions hash) accept: the
 * registry itself, its entries, or plain action objects.
 */
export type ActionSource = ActionRegistry | Iterable<RegisteredAction | ActionDefinition>;

/** The actions of a source, sorted by name so that registration order never changes an output. */
export function actionsOf(source: ActionSource): ActionDefinition[] {
  const items = source instanceof ActionRegistry ? source.list() : [...source];
  return items
    .map((item) => ("run" in item ? item : item.action))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
