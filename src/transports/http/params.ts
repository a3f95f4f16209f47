import { boundedParamsCopy, ParamsBounds } from "../../core/params-bounds";

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The raw params of an HTTP call: path params, then the query, then the body (and its files),
 * a later source overriding an earlier one. The merge only picks top-level keys; the one walk of
 * `boundedParamsCopy` then checks the bounds and drops prototype keys at every depth.
 */
export function mergeParams(bounds: ParamsBounds, ...sources: readonly unknown[]): Record<string, unknown> {
  const merged: Record<string, unknown> = Object.create(null);
  for (const source of sources) {
    if (!isRecord(source)) continue;
    for (const key of Object.keys(source)) merged[key] = source[key];
  }
  return boundedParamsCopy(merged, bounds);
}
