import { z } from "zod";
import { isSecret, paginationInputs, safeCompare, secret, zBooleanFromString } from "herald";
import { redactSecrets } from "../../src/core/secret";

describe("secret / isSecret", () => {
  test("marks a schema through zod's metadata, keeping its other metadata and behaviour", () => {
    const password = secret(z.string().min(8).meta({ description: "Your password" }));
    expect(isSecret(password)).toBe(true);
    expect(password.meta()).toMatchObject({ description: "Your password", secret: true });
    expect(password.safeParse("short").success).toBe(false);
    expect(password.parse("long enough")).toBe("long enough");
  });

  test("sees through optional, default and nullable wrappers", () => {
    expect(isSecret(secret(z.string()).optional())).toBe(true);
    expect(isSecret(secret(z.string()).default("x"))).toBe(true);
    expect(isSecret(secret(z.string()).nullable())).toBe(true);
  });

  test("plain schemas are not secret, and marking one does not mark the original", () => {
    const plain = z.string();
    secret(plain);
    expect(isSecret(plain)).toBe(false);
    expect(isSecret(undefined)).toBe(false);
  });

  test("redaction replaces secret values at any depth and leaves the rest", () => {
    const schema = z.object({
      name: z.string(),
      password: secret(z.string()),
      keys: z.array(z.object({ label: z.string(), token: secret(z.string()) })),
    });
    expect(
      redactSecrets(schema, { name: "Ada", password: "p", keys: [{ label: "a", token: "t" }], unknown: 1 }),
    ).toEqual({ name: "Ada", password: "[[secret]]", keys: [{ label: "a", token: "[[secret]]" }], unknown: 1 });
  });
});

describe("zBooleanFromString", () => {
  const schema = zBooleanFromString();
  test.each([
    [true, true],
    [false, false],
    ["true", true],
    ["false", false],
  ])("%p gives %p", (input, output) => {
    expect(schema.parse(input)).toBe(output);
  });
  test.each(["yes", "1", 1, null, "TRUE"])("%p is refused", (input) => {
    expect(schema.safeParse(input).success).toBe(false);
  });
});

describe("paginationInputs", () => {
  test("defaults to page 1 and 25 per page, coercing strings", () => {
    const schema = paginationInputs();
    expect(schema.parse({})).toEqual({ page: 1, limit: 25 });
    expect(schema.parse({ page: "3", limit: "100" })).toEqual({ page: 3, limit: 100 });
  });

  test("takes defaultLimit and maxLimit", () => {
    const schema = paginationInputs({ defaultLimit: 10, maxLimit: 50 });
    expect(schema.parse({})).toEqual({ page: 1, limit: 10 });
    expect(schema.parse({ limit: "50" }).limit).toBe(50);
  });

  test("a limit above maxLimit is rejected with a message naming the max", () => {
    const result = paginationInputs({ maxLimit: 50 }).safeParse({ limit: 51 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ["limit"], message: "limit must be at most 50" });
  });

  test.each([{ page: 0 }, { page: -1 }, { page: 1.5 }, { limit: 0 }, { page: "abc" }])("%p is refused", (input) => {
    expect(paginationInputs().safeParse(input).success).toBe(false);
  });
});

describe("safeCompare", () => {
  test("equal strings match; different ones, of any length, do not", () => {
    expect(safeCompare("s3cret-key", "s3cret-key")).toBe(true);
    expect(safeCompare("s3cret-key", "s3cret-kez")).toBe(false);
    expect(safeCompare("s3cret-key", "s3cret-key-longer")).toBe(false);
    expect(safeCompare("", "")).toBe(true);
    expect(safeCompare("", "x")).toBe(false);
  });

  test("handles multi-byte text", () => {
    expect(safeCompare("pässwörd🔑", "pässwörd🔑")).toBe(true);
    expect(safeCompare("pässwörd🔑", "passwörd🔑")).toBe(false);
  });
});
