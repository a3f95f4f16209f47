import { z } from "zod";
import { isZodNode, nodeDefOf } from "../core/zod-internals";
import { hasComputedDefault } from "./json-schema";

type ZodNode = z.core.$ZodType | z.core.$ZodCheck;

/**
 * A plain, JSON-ready description of a zod schema: its definition tree (types, checks, shapes,
 * literals) and the metadata of every node, which is all the JSON Schema conversion reads.
 * Functions (transforms, refinements) are left out: they never reach a JSON Schema, and their
 * source text differs between compilers.
 */
export function schemaFingerprint(schema: z.core.$ZodType): unknown {
  return describe(schema, new Set());
}

function describe(value: unknown, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case "function":
      return "[function]";
    case "bigint":
      return `${value}n`;
    case "symbol":
      return value.toString();
    case "undefined":
      return "[undefined]";
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "string":
    case "boolean":
      return value;
  }
  if (value === null) return null;
  const node = value as object;
  if (node instanceof RegExp) return `/${node.source}/${node.flags}`;
  if (node instanceof Date) return node.toISOString();
  if (ancestors.has(node)) return "[recursive]";
  ancestors.add(node);
  try {
    if (isZodNode(node)) {
      return { def: describeDefinition(node, ancestors), meta: describe(z.globalRegistry.get(node as z.core.$ZodType) ?? null, ancestors) };
    }
    if (Array.isArray(node)) return node.map((item) => describe(item, ancestors));
    const record = node as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((key) => [key, describe(record[key], ancestors)]));
  } finally {
    ancestors.delete(node);
  }
}

function describeDefinition(node: ZodNode, ancestors: Set<object>): unknown {
  const def = nodeDefOf(node);
  const described: Record<string, unknown> = {};
  for (const key of Object.keys(def).sort()) {
    if (key === "defaultValue" && hasComputedDefault(node as z.core.$ZodType)) described[key] = "[computed]";
    else if (key === "getter" && def.type === "lazy") described[key] = describe((def.getter as () => unknown)(), ancestors);
    else described[key] = describe(def[key], ancestors);
  }
  return described;
}
