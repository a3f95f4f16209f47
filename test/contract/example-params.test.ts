import { z } from "zod";
import { secret } from "herald";
import type { ActionDefinition, ActionInputs } from "../../src/core/action";
import { exampleParams } from "../../src/contract/example-params";

function withInputs(inputs?: ActionInputs): ActionDefinition {
  return { name: "example:call", ...(inputs ? { inputs } : {}), run: async () => null };
}

test("each required field gets a value its schema accepts, the schema's own before one made from its type", () => {
  const inputs = z.object({
    title: z.string().min(10).max(12),
    email: z.email(),
    count: z.coerce.number().int().min(3),
    ratio: z.number().gt(0.5).max(1),
    mood: z.enum(["happy", "sad"]),
    tags: z.array(z.string()),
    flag: z.boolean(),
    city: z.string().meta({ examples: ["Lyon"] }),
    password: secret(z.string().min(8)),
    nickname: z.string().optional(),
    settings: z.object({ deep: z.boolean() }),
  });
  const params = exampleParams(withInputs(inputs));
  expect(Object.keys(params)).toEqual(["title", "email", "count", "ratio"]);
  expect(params).toEqual({ title: "exampleexamp", email: "ada@example.com", count: 3, ratio: 1 });
  expect(inputs.pick({ title: true, email: true, count: true, ratio: true }).safeParse(params).success).toBe(true);
});

test("an enum, an array, a boolean and a schema's own examples; a secret only when it is required", () => {
  const inputs = z.object({
    mood: z.enum(["happy", "sad"]),
    tags: z.array(z.string()),
    flag: z.boolean(),
    city: z.string().meta({ examples: ["Lyon"] }),
    password: secret(z.string().min(8)),
  });
  expect(exampleParams(withInputs(inputs.partial({ password: true })))).toEqual({ mood: "happy", tags: ["example"], flag: true, city: "Lyon" });
  expect(exampleParams(withInputs(inputs.pick({ password: true })))).toEqual({ password: "exampleexample" });
});

test("without a required field, the first field with a value to show: its default before anything made up, never a secret", () => {
  expect(exampleParams(withInputs(z.object({ who: z.string().default("world"), loud: z.boolean().optional() })))).toEqual({ who: "world" });
  expect(exampleParams(withInputs(z.object({ token: secret(z.string()).optional(), page: z.coerce.number().int().min(1).optional() })))).toEqual({ page: 1 });
});

test("an action without inputs, or whose inputs are not one object, takes no params", () => {
  expect(exampleParams(withInputs())).toEqual({});
  expect(exampleParams(withInputs(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })])))).toEqual({});
  expect(exampleParams(withInputs(z.object({ nested: z.object({ a: z.string() }) })))).toEqual({});
});
