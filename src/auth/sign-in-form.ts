import { z } from "zod";
import type { ErrorIssue } from "../core/errors";
import { isSecret } from "../core/secret";
import type { FormField } from "./pages";

type JsonSchema = { type?: string | string[]; format?: string; description?: string; title?: string };

function fieldType(schema: JsonSchema, secretField: boolean): FormField["type"] {
  if (secretField) return "password";
  if (schema.format === "email") return "email";
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== "null") : schema.type;
  if (type === "number" || type === "integer") return "number";
  return type === "boolean" ? "checkbox" : "text";
}

/** A field per input of the sign-in action: a secret one as a password field, an e-mail address as an email field. */
export function signInFields(inputs: z.ZodType | undefined): FormField[] {
  if (!(inputs instanceof z.ZodObject)) return [];
  const json = z.toJSONSchema(inputs, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    label: schema.title ?? schema.description ?? name,
    type: fieldType(schema, isSecret(inputs.shape[name] as z.ZodType | undefined)),
    required: json.required?.includes(name) ?? false,
  }));
}

/** The action's params from the submitted form: numbers and checkboxes as such, empty optional fields left out. */
export function paramsFromForm(fields: readonly FormField[], form: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const field of fields) {
    const value = form.get(field.name);
    if (field.type === "checkbox") params[field.name] = value !== null;
    else if (value === null || (value === "" && !field.required)) continue;
    else params[field.name] = field.type === "number" ? Number(value) : value;
  }
  return params;
}

/** The fields again, with what was typed (secrets excepted) and each one's first validation message. */
export function refilledFields(fields: readonly FormField[], form: URLSearchParams, issues: readonly ErrorIssue[] = []): FormField[] {
  return fields.map((field) => {
    const value = form.get(field.name);
    const issue = issues.find((candidate) => candidate.path[0] === field.name);
    return { ...field, ...(value !== null && field.type !== "password" ? { value } : {}), ...(issue ? { error: issue.message } : {}) };
  });
}
