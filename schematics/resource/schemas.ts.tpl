import { z } from "zod";
import { ErrorType, TypedError, zodFromEntity } from "herald";
import { {{pascal}} } from "{{entityFromSchemas}}";

/** A {{words}} as stored and as clients see it, generated from the entity's columns. */
export const z{{pascal}}Schema = zodFromEntity({{pascal}});
export type {{pascal}}Model = z.output<typeof z{{pascal}}Schema>;

/** What a client writes: every column but those the database fills in. */
export const z{{pascal}}Fields = z{{pascal}}Schema.omit({ id: true, created_at: true, updated_at: true }).extend({
  // PostgreSQL's text cannot hold U+0000: refused here (422) rather than by the database (500).
  title: z{{pascal}}Schema.shape.title
    .refine((text) => !text.includes("\u0000"), "Must not contain the NUL character (U+0000)")
    .describe("The title, at most 200 characters"),
});

/** A {{words}}'s id, as a number or as the digits of a route or a CLI flag; at most what an `integer` column holds. */
export const z{{pascal}}Id = z.coerce.number().int().min(1).max(2_147_483_647).describe("The {{words}}'s id");

/** The {{words}} as clients see it: its columns, and nothing else the object may carry. */
export function serialize{{pascal}}(row: {{pascal}}Model): {{pascal}}Model {
  return z{{pascal}}Schema.parse(row);
}

/** What view, edit and delete declare beyond Herald's own errors: an id no {{words}} has. */
export const {{camel}}NotFoundErrors = { CONNECTION_NOT_FOUND: z.number().int().describe("The id no {{words}} has") };

export function {{camel}}NotFound(id: number): TypedError {
  return new TypedError({ message: `{{label}} ${id} not found`, type: ErrorType.CONNECTION_NOT_FOUND, key: "id", value: id });
}
