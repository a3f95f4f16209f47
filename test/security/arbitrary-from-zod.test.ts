import fc from "fast-check";
import type { DataSource } from "typeorm";
import { z } from "zod";
import { paginationInputs, registerDataSource, secret, zBooleanFromString } from "herald";
import { MessageCreate } from "../../sample-app/actions/message";
import { MessagesCleanup, MessagesList } from "../../sample-app/actions/messages";
import { SessionCreate } from "../../sample-app/actions/session";
import { UserCreate, UserEdit, UserView } from "../../sample-app/actions/user";
import { userFields, zUserIdOrModel, zUserSchema } from "../../sample-app/schemas/user";
import { arbitraryFromZod } from "./support/arbitrary-from-zod";

/** Every generated value must pass its schema, or the hostile tests would spoil params that were already wrong. */
async function expectAllParse(schema: z.ZodType, numRuns = 200): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitraryFromZod(schema), async (value) => {
      const parsed = await schema.safeParseAsync(value);
      if (!parsed.success) throw new Error(`${JSON.stringify(value)} does not parse: ${parsed.error.message}`);
    }),
    { numRuns },
  );
}

/** An action's `inputs`, without the services its constructor would receive. */
function inputsOf(action: abstract new (...args: never[]) => { inputs?: z.ZodType }): z.ZodType {
  const inputs = Reflect.construct(action, []).inputs as z.ZodType | undefined;
  if (!inputs) throw new Error(`${action.name} has no inputs`);
  return inputs;
}

// zIdOrModel looks ids up in a registered DataSource; this one finds every id, so that parsing needs no database.
let unregister: () => void = () => undefined;
beforeAll(() => {
  const everyIdExists = {
    isInitialized: true,
    hasMetadata: () => true,
    // No column metadata: zIdOrModel then has no id range to check an id against.
    getMetadata: () => ({ findColumnWithPropertyName: () => undefined }),
    getRepository: () => ({ findOneBy: async ({ id }: { id: number }) => ({ id, name: "Ada", email: "ada@example.com", password_hash: "x" }) }),
  };
  unregister = registerDataSource(everyIdExists as unknown as DataSource);
});
afterAll(() => unregister());

describe("the sample app's action inputs", () => {
  test.each([
    ["user:create", UserCreate],
    ["user:view", UserView],
    ["user:edit", UserEdit],
    ["session:create", SessionCreate],
    ["message:create", MessageCreate],
    ["messages:list", MessagesList],
    ["messages:cleanup", MessagesCleanup],
  ] as const)("%s: every generated value parses", async (_name, action) => {
    await expectAllParse(inputsOf(action));
  });
});

describe("representative schemas", () => {
  test("account fields: trimmed lengths, an e-mail address, a secret password", async () => {
    await expectAllParse(z.object(userFields));
  });

  test("pagination: coerced integers with bounds, both defaulted", async () => {
    const schema = paginationInputs({ defaultLimit: 10, maxLimit: 50 });
    await expectAllParse(schema);
    // Coercion is exercised with text too, as a query string sends it.
    const samples = fc.sample(arbitraryFromZod(schema.shape.page), 200);
    expect(samples.some((value) => typeof value === "string")).toBe(true);
    expect(samples.some((value) => typeof value === "number")).toBe(true);
  });

  test("id or model: positive ids as numbers and digits, and whole user objects", async () => {
    const schema = zUserIdOrModel();
    await expectAllParse(schema);
    const samples = fc.sample(arbitraryFromZod(schema), 300);
    expect(new Set(samples.map((value) => typeof value))).toEqual(new Set(["number", "string", "object"]));
    expect(samples.filter((value) => typeof value === "string").every((value) => /^[1-9]\d*$/.test(value as string))).toBe(true);
  });

  test("a model built by zodFromEntity, with preprocessed timestamps", async () => {
    await expectAllParse(zUserSchema);
  });

  test("booleans from text, enums, literals, arrays, records, nested objects, optional and nullable fields", async () => {
    await expectAllParse(
      z.object({
        pinned: zBooleanFromString(),
        theme: z.enum(["light", "dark"]),
        kind: z.literal("note"),
        tags: z.array(z.string().min(1).max(5)).min(1).max(3),
        meta: z.record(z.string(), z.unknown()),
        address: z.object({ city: z.string().max(100).optional(), zip: z.string().regex(/^\d{5}$/) }),
        nickname: z.string().trim().toLowerCase().min(2).nullable(),
        rating: z.number().gt(0).lte(5),
        count: z.int().positive().multipleOf(5).max(1000),
        token: secret(z.string().length(12)),
        id: z.uuid().optional(),
      }),
    );
  });

  test("a schema it cannot generate for is refused, not guessed", () => {
    expect(() => arbitraryFromZod(z.object({ at: z.bigint() }))).toThrow('no arbitrary for a zod "bigint" schema');
    expect(() => arbitraryFromZod(z.string().includes("@"))).toThrow('no arbitrary for the string format "includes"');
  });
});
