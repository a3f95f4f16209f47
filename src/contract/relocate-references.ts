/** `value` with each local `$ref` (one starting with `#`) replaced by what `rewrite` makes of it. */
export function mapLocalReferences(value: unknown, rewrite: (reference: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapLocalReferences(item, rewrite));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === "$ref" && typeof inner === "string" && inner.startsWith("#") ? [key, rewrite(inner)] : [key, mapLocalReferences(inner, rewrite)],
    ),
  );
}

/**
 * A standalone schema refers to itself (`#`, `#/$defs/…`); once it is placed at `pointer` (a
 * component of a document), the same references must start from there.
 */
export function relocateReferences(value: unknown, pointer: string): unknown {
  return mapLocalReferences(value, (reference) => pointer + reference.slice(1));
}
