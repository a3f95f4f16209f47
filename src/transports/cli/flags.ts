import type { Options } from "yargs";
import { z } from "zod";
import { isSecret } from "../../core/secret";
import { defOf, WRAPPER_TYPES } from "../../core/zod-internals";

interface Unwrapped {
  base: z.ZodType;
  optional: boolean;
  defaultValue?: unknown;
  description?: string;
}

function definitionOf(schema: z.ZodType): Record<string, any> {
  return defOf(schema);
}

function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema;
  let optional = false;
  let defaultValue: unknown;
  let description = schema.description;
  for (;;) {
    const def = definitionOf(current);
    if (def.type === "optional" || def.type === "nullable") optional = true;
    if (def.type === "default" || def.type === "prefault") {
      optional = true;
      defaultValue = typeof def.defaultValue === "function" ? def.defaultValue() : def.defaultValue;
    }
    if (WRAPPER_TYPES.has(def.type)) current = def.innerType;
    else if (def.type === "pipe") current = def.in;
    else break;
    description ??= current.description;
  }
  return { base: current, optional, ...(defaultValue !== undefined ? { defaultValue } : {}), ...(description ? { description } : {}) };
}

function isBooleanLike(schema: z.ZodType): boolean {
  const def = definitionOf(schema);
  if (def.type === "boolean") return true;
  if (def.type !== "union") return false;
  return (def.options as z.ZodType[]).some((option) => definitionOf(unwrap(option).base).type === "boolean");
}

/**
 * A JSON flag's value; text that is not JSON stays text, for the action's schema to refuse with
 * a typed error (yargs would turn a throw here into an untyped failure).
 */
function parseJsonFlag(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * One yargs option per field of an action's `inputs`. yargs only shapes the flags; the values
 * still go through the action's own schema in the dispatcher, like on every other transport.
 */
export function flagsFromInputs(inputs: z.ZodType | undefined): Record<string, Options> {
  const flags: Record<string, Options> = {};
  if (!(inputs instanceof z.ZodObject)) return flags;
  for (const [field, fieldSchema] of Object.entries(inputs.shape as Record<string, z.ZodType>)) {
    const { base, optional, defaultValue, description } = unwrap(fieldSchema);
    const def = definitionOf(base);
    const option: Options = { demandOption: !optional, describe: description ?? "" };
    if (isSecret(fieldSchema)) option.describe = `${option.describe} (secret)`.trim();
    if (defaultValue !== undefined) option.default = defaultValue;
    if (isBooleanLike(base)) option.type = "boolean";
    else if (def.type === "number" || def.type === "int" || def.type === "bigint") option.type = "number";
    else if (def.type === "enum") {
      option.type = "string";
      option.choices = Object.values(def.entries as Record<string, string | number>);
    } else if (def.type === "array") {
      const element = unwrap(def.element as z.ZodType);
      option.type = definitionOf(element.base).type === "number" ? "number" : "string";
      option.array = true;
    } else if (def.type === "object" || def.type === "record") {
      option.type = "string";
      option.coerce = parseJsonFlag;
      option.describe = `${option.describe} (JSON)`.trim();
    } else option.type = "string";
    flags[field] = option;
  }
  return flags;
}
