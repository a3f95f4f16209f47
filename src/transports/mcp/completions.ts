import { z } from "zod";
import type { RegisteredAction } from "../../core/registry";
import type { McpCatalog } from "./catalog";

/** MCP caps a completion at 100 values. */
const MAX_VALUES = 100;

interface CompletionRequest {
  ref: { type: string; name?: string; uri?: string };
  argument: { name: string; value: string };
}

/** The values an input accepts, where its schema names them: an enum, a literal, or a union of those. */
function knownValues(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return knownValues(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodEnum) return schema.options.map(String);
  if (schema instanceof z.ZodLiteral) return [...schema.values].map(String);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(knownValues);
  return [];
}

function inputOf(registered: RegisteredAction, name: string): z.ZodType | undefined {
  const inputs = registered.action.inputs;
  return inputs instanceof z.ZodObject ? (inputs.shape as Record<string, z.ZodType>)[name] : undefined;
}

/**
 * `completion/complete` for a prompt's argument or a resource template's variable: the values its
 * input's schema names (`z.enum`, `z.literal`) that start with what the user typed so far.
 */
export function completionsFor(catalog: McpCatalog, request: CompletionRequest): { values: string[]; total: number; hasMore: boolean } {
  const registered =
    request.ref.type === "ref/prompt"
      ? catalog.prompts.get(request.ref.name ?? "")?.registered
      : catalog.resources.find((entry) => entry.uriTemplate === request.ref.uri)?.registered;
  const typed = request.argument.value.toLowerCase();
  const matching = registered ? knownValues(inputOf(registered, request.argument.name)).filter((value) => value.toLowerCase().startsWith(typed)) : [];
  return { values: matching.slice(0, MAX_VALUES), total: matching.length, hasMore: matching.length > MAX_VALUES };
}
