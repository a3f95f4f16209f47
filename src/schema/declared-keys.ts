import type { z } from "zod";
import { defOf } from "../core/zod-internals";

/**
 * The keys an input schema keeps, or undefined when it keeps any key or cannot be read that way:
 * an object's own keys (a loose object or one with a catchall keeps all), a pipe's input's,
 * an intersection's from both sides. zod drops, or a strict object refuses, every other key.
 */
export function declaredKeys(schema: z.ZodType): ReadonlySet<string> | undefined {
  const def = defOf(schema);
  if (def.type === "object") {
    const catchall = def.catchall as z.ZodType | undefined;
    if (catchall && defOf(catchall).type !== "never") return undefined;
    return new Set(Object.keys(def.shape as Record<string, unknown>));
  }
  if (def.type === "pipe") return declaredKeys(def.in as z.ZodType);
  if (def.type === "intersection") {
    const left = declaredKeys(def.left as z.ZodType);
    const right = declaredKeys(def.right as z.ZodType);
    return left && right ? new Set([...left, ...right]) : undefined;
  }
  return undefined;
}
