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

/** A value as yargs' help prints choices and defaults. */
function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * The help's `[type] [required] [choices: …] [default: …]`, written into the description: yargs
 * would print them only for options it also enforces, and here the action's schema enforces them.
 */
function helpText(description: string, type: string, required: boolean, choices: readonly unknown[] | undefined, defaultValue: unknown): string {
  const extras = [
    `[${type}]`,
    required ? "[required]" : undefined,
    choices ? `[choices: ${choices.map(shown).join(", ")}]` : undefined,
    defaultValue !== undefined ? `[default: ${shown(defaultValue)}]` : undefined,
  ].filter(Boolean);
  return [description, extras.join(" ")].filter(Boolean).join("  ");
}

/**
 * One yargs option per field of an action's `inputs`. yargs only turns the command line into
 * raw values, as a query string carries them: text (JSON for object fields), an array for an
 * array field, true for a bare `--flag` and false for `--no-flag`. It checks nothing: the action's
 * schema in the dispatcher does, as on every other transport, and the help only describes it.
 */
export function flagsFromInputs(inputs: z.ZodType | undefined): Record<string, Options> {
  const flags: Record<string, Options> = {};
  if (!(inputs instanceof z.ZodObject)) return flags;
  for (const [field, fieldSchema] of Object.entries(inputs.shape as Record<string, z.ZodType>)) {
    const { base, optional, defaultValue, description } = unwrap(fieldSchema);
    const def = definitionOf(base);
    let describe = description ?? "";
    if (isSecret(fieldSchema)) describe = `${describe} (secret)`.trim();
    const option: Options = {};
    let type = "string";
    let choices: readonly unknown[] | undefined;
    // No yargs type for a boolean: yargs would read any value but "true" as false.
    if (isBooleanLike(base)) type = "boolean";
    else {
      option.type = "string";
      if (def.type === "number" || def.type === "int" || def.type === "bigint") type = "number";
      else if (def.type === "enum") choices = Object.values(def.entries as Record<string, string | number>);
      else if (def.type === "array") {
        type = "array";
        option.array = true;
      } else if (def.type === "object" || def.type === "record") {
        option.coerce = parseJsonFlag;
        describe = `${describe} (JSON)`.trim();
      }
    }
    option.describe = helpText(describe, type, !optional, choices, defaultValue);
    flags[field] = option;
  }
  return flags;
}
