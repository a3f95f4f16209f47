import { z } from "zod";
import { ErrorType, TypedError } from "herald";
import type { ActionDefinition } from "../../src/core/action";
import { parsesSynchronously } from "../../src/core/sync-parse";
import { parseParams } from "../../src/core/validation";
import { pipeline } from "../support/pipeline";

function action(name: string, inputs: z.ZodType): ActionDefinition {
  return { name, inputs, run: async (params: unknown) => ({ params }) } as ActionDefinition;
}

interface TreeNode {
  label: string;
  children: TreeNode[];
}

describe("which schemas parse synchronously", () => {
  test("zod's own types and checks, however nested, do", () => {
    const schema = z.object({
      message: z.string().min(1).max(64).email().optional(),
      count: z.coerce.number().int().min(1).default(1),
      tags: z.array(z.enum(["a", "b"])).nullable(),
      pair: z.tuple([z.string(), z.number()], z.boolean()),
      either: z.union([z.literal("x"), z.object({ y: z.date() })]),
      map: z.record(z.string(), z.number().positive()),
      both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
      strict: z.strictObject({ k: z.string() }).catch({ k: "fallback" }),
    });
    expect(parsesSynchronously(schema)).toBe(true);
  });

  test.each<[string, z.ZodType]>([
    ["a refine", z.object({ a: z.string().refine((value) => value.length > 1) })],
    ["an async refine deep inside", z.object({ list: z.array(z.object({ id: z.number().refine(async () => true) })) })],
    ["a transform", z.object({ a: z.string().transform((value) => value.trim()) })],
    ["a preprocess", z.object({ a: z.preprocess((value) => value, z.string()) })],
    ["a superRefine on the object", z.object({ a: z.string() }).superRefine(() => undefined)],
    ["z.custom", z.object({ a: z.custom<string>((value) => typeof value === "string") })],
    ["z.lazy", z.object({ a: z.lazy(() => z.string()) })],
    ["a codec", z.object({ flag: z.stringbool() })],
  ])("%s may be async, so it does not", (_label, schema) => {
    expect(parsesSynchronously(schema)).toBe(false);
  });

  test("a recursive schema is walked once, and its verdict covers every branch", () => {
    const Node: z.ZodType<TreeNode> = z.object({
      label: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    expect(parsesSynchronously(Node)).toBe(true);

    const Checked: z.ZodType<TreeNode> = z.object({
      label: z.string().refine(async () => true),
      get children() {
        return z.array(Checked);
      },
    });
    expect(parsesSynchronously(z.object({ tree: Checked }))).toBe(false);
  });

  test("either way the result is the one zod's async parse gives", async () => {
    const schema = z.object({ message: z.string().min(2), count: z.coerce.number().int().default(1) });
    expect(parseParams(schema, { message: "hi", count: "3" })).toEqual(await schema.parseAsync({ message: "hi", count: "3" }));
    expect(() => parseParams(schema, { message: "h" })).toThrow(TypedError);
  });
});

describe("inputs with async steps, through the dispatcher", () => {
  test("an async refine runs once per call, and its verdict decides", async () => {
    const seen: string[] = [];
    const inputs = z.object({
      email: z.string().refine(async (email) => {
        seen.push(email);
        return !email.startsWith("taken");
      }, "already registered"),
    });
    const { run } = pipeline([action("user:register", inputs)]);

    expect(await run("user:register", { email: "new@example.com" })).toMatchObject({
      status: 200,
      response: { params: { email: "new@example.com" } },
    });
    const refused = await run("user:register", { email: "taken@example.com" });
    expect(refused).toMatchObject({ status: 422, error: { type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "email" } });
    expect(refused.error?.message).toContain("already registered");
    expect(seen).toEqual(["new@example.com", "taken@example.com"]);
  });

  test("a sync refine next to an async transform runs once, and a rejecting transform leaves no unhandled rejection", async () => {
    const unhandled = jest.fn();
    process.on("unhandledRejection", unhandled);
    try {
      let refined = 0;
      let transformed = 0;
      const inputs = z.object({
        name: z.string().refine(() => ++refined > 0),
        id: z.number().transform(async (id) => {
          transformed += 1;
          if (id === 0) throw new TypedError({ message: "no user 0", type: ErrorType.CONNECTION_NOT_FOUND });
          return { id };
        }),
      });
      const { run } = pipeline([action("user:rename", inputs)]);

      expect((await run("user:rename", { name: "Ada", id: 7 })).response).toEqual({ params: { name: "Ada", id: { id: 7 } } });
      expect(await run("user:rename", { name: "Ada", id: 0 })).toMatchObject({ status: 404, error: { message: "no user 0" } });
      expect({ refined, transformed }).toEqual({ refined: 2, transformed: 2 });
      // An unhandled rejection is reported after the microtask queue drains: give it one macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });
});
