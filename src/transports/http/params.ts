import { assertParamsDepth } from "../../core/params-depth";

/** Keys that would reach an object's prototype if a parser or a later copy assigned them. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A deep copy of parsed input as ordinary objects and arrays, without the prototype keys at any
 * depth. Other values (strings, numbers, uploaded `File`s) are kept as they are.
 */
export function withoutPrototypeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPrototypeKeys);
  if (!isPlainRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) continue;
    copy[key] = withoutPrototypeKeys(value[key]);
  }
  return copy;
}

/**
 * The raw params of an HTTP call: path params, then the query, then the body (and its files),
 * a later source overriding an earlier one.
 */
export function mergeParams(...sources: readonly unknown[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const source of sources) {
    if (!isPlainRecord(source)) continue;
    // Flat values (a query, path params, most bodies) are copied as they are, without a walk.
    for (const key of Object.keys(source)) {
      if (PROTOTYPE_KEYS.has(key)) continue;
      const value = source[key];
      if (value === null || typeof value !== "object") {
        merged[key] = value;
        continue;
      }
      // Before the recursive copy, which a body nested thousands deep would overflow; wrapped, as it sits one level down.
      assertParamsDepth([value]);
      merged[key] = withoutPrototypeKeys(value);
    }
  }
  return merged;
}
