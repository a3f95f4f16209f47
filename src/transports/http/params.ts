import { boundedParamsCopy, ParamsBounds } from "../../core/params-bounds";

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The one source that has keys, when no other has any and it is an ordinary object (which
 * boundedParamsCopy copies; another kind it would keep as it is).
 */
function onlySource(sources: readonly unknown[]): Record<string, unknown> | undefined {
  let only: Record<string, unknown> | undefined;
  for (const source of sources) {
    // Object.keys, not for…in: a query is an object without a prototype, which for…in walks slowly.
    if (!isRecord(source) || Object.keys(source).length === 0) continue;
    if (only) return undefined;
    only = source;
  }
  if (!only) return undefined;
  const prototype = Object.getPrototypeOf(only) as unknown;
  return prototype === Object.prototype || prototype === null ? only : undefined;
}

/**
 * The raw params of an HTTP call: path params, then the query, then the body (and its files),
 * a later source overriding an earlier one. The merge only picks top-level keys; the one walk of
 * `boundedParamsCopy` then checks the bounds and drops prototype keys at every depth.
 */
export function mergeParams(bounds: ParamsBounds, ...sources: readonly unknown[]): Record<string, unknown> {
  const only = onlySource(sources);
  // One source with keys (a query alone, a body alone): the copy is the merge, without a table between.
  if (only) return boundedParamsCopy(only, bounds);
  const merged: Record<string, unknown> = Object.create(null);
  for (const source of sources) {
    if (!isRecord(source)) continue;
    for (const key of Object.keys(source)) merged[key] = source[key];
  }
  return boundedParamsCopy(merged, bounds);
}
