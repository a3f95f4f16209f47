import { ErrorType, TypedError } from "./errors";

/**
 * How deep params may nest (objects and arrays). Deeper input is refused before anything walks it
 * recursively (copies, validation, logging, the JSON of an echo), where it would overflow the
 * stack; 100 is also the usual default of JSON parsers that limit nesting.
 */
export const MAX_PARAMS_DEPTH = 100;

/** Throws CONNECTION_ACTION_PARAM_FORMATTING (400) when `value` nests deeper than `maxDepth`; walks without recursion. */
export function assertParamsDepth(value: unknown, maxDepth: number = MAX_PARAMS_DEPTH): void {
  if (value === null || typeof value !== "object") return;
  // Only objects and arrays are queued, so flat params (the usual case) cost one pass over their values.
  const pending: [object, number][] = [[value, 0]];
  while (pending.length) {
    const [current, depth] = pending.pop()!;
    if (depth >= maxDepth) {
      throw new TypedError({
        message: `Params may nest at most ${maxDepth} levels deep`,
        type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
        key: "params",
      });
    }
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
    }
  }
}
