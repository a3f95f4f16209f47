import type { z } from "zod";
import { hasMetaFlag } from "../core/secret";

/**
 * Marks a field as internal: it stays in the zod schema, so code that parses or redacts a row
 * still sees it, but it is left out of every JSON Schema Herald writes (the OpenAPI document, MCP
 * tool schemas), since no client ever sends or needs it. `zodFromEntity` marks its `secret` columns so.
 */
export function internal<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...(schema.meta() ?? {}), internal: true }) as T;
}

/** True when the schema, or a wrapper around it (optional, nullable …), is marked internal. */
export function isInternal(schema: z.ZodType | undefined): boolean {
  return hasMetaFlag(schema, "internal");
}
