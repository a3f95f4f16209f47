import { z } from "zod";
import { checkDefOf, childSchemas, defOf, isZodNode, nodeDefOf, overrideJsonSchema, wrappedSchema } from "../../src/core/zod-internals";

/**
 * What Herald reads of zod's internals (`_zod.def`), against the zod installed: when a release
 * moves them, these fail, rather than the CLI's flags, the OpenAPI document or the request log's
 * secret check quietly reading nothing.
 */
test("a schema's definition names its type, and its checks have definitions naming their kind", () => {
  const name = z.string().min(2);
  expect(isZodNode(name)).toBe(true);
  expect(isZodNode({ def: {} })).toBe(false);
  const def = defOf(name);
  expect(def.type).toBe("string");
  expect(def.checks!.map((check) => checkDefOf(check).check)).toEqual(["min_length"]);
  expect(checkDefOf(def.checks![0]!).minimum).toBe(2);
  expect(nodeDefOf(name)).toBe(def);
});

test("wrappers, pipes and lazies stand for the schema they hold", () => {
  const inner = z.number();
  for (const wrapper of [inner.optional(), inner.nullable(), inner.default(1), inner.readonly(), inner.catch(0)]) {
    expect(wrappedSchema(wrapper)).toBe(inner);
  }
  expect(wrappedSchema(inner.pipe(z.number().int()))).toBe(inner);
  expect(wrappedSchema(z.lazy(() => inner))).toBe(inner);
  expect(wrappedSchema(inner)).toBeUndefined();
});

test("the schemas a definition holds are found in its shape, items, options and inner types", () => {
  const [a, b, c] = [z.string(), z.number(), z.boolean()];
  expect(childSchemas(defOf(z.object({ a, b })))).toEqual([a, b]);
  expect(childSchemas(defOf(z.array(c)))).toEqual([c]);
  expect(childSchemas(defOf(z.union([a, b])))).toEqual([a, b]);
});

test("a schema's JSON Schema conversion can be replaced", () => {
  const schema = z.string();
  overrideJsonSchema(schema, () => ({ type: "string", format: "overridden" }));
  expect(z.toJSONSchema(schema)).toMatchObject({ format: "overridden" });
});
