import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import {
  ActionRegistry,
  computeActionsHash,
  ErrorType,
  generateOpenApiSchemas,
  HTTP_METHOD,
  loadCachedSchemas,
  rootContainer,
  secret,
  TypedError,
  writeSchemasCache,
} from "herald";
import { openApiCachePath } from "herald/toolchain";
import type { ActionDefinition } from "../../src/core/action";
import { inputJsonSchema, rememberInputJsonSchemas, type JSONSchema } from "../../src/contract/json-schema";
import { fixtureActions } from "../openapi/support/fixture-actions";

function signUp(overrides: Partial<ActionDefinition> = {}): ActionDefinition {
  return {
    name: "user:create",
    description: "Sign up",
    inputs: z.object({ name: z.string().min(3), password: secret(z.string().min(8)) }),
    web: { route: "/user", method: HTTP_METHOD.PUT },
    run: async () => ({}),
    ...overrides,
  };
}

const ping: ActionDefinition = { name: "health:ping", web: { route: "/ping", method: HTTP_METHOD.GET }, run: async () => ({}) };

describe("generateOpenApiSchemas", () => {
  test("gives the input JSON Schema of every action with inputs, keyed by name, web or not", () => {
    const schemas = generateOpenApiSchemas(fixtureActions());
    expect(Object.keys(schemas)).toEqual([
      "archive:read",
      "files:get",
      "messages:cleanup",
      "messages:list",
      "posts:list",
      "tree:save",
      "user:create",
      "user:delete",
      "user:update",
      "user:view",
    ]);
    expect(schemas["messages:cleanup"]).toEqual({
      type: "object",
      properties: { age: { type: "number", default: 86_400_000 } },
    });
    expect(schemas["user:create"]).not.toHaveProperty("$schema");
  });

  test("describes what a client sends: a defaulted field is optional, a secret is a writeOnly password", () => {
    const schema = generateOpenApiSchemas([signUp({ inputs: z.object({ page: z.coerce.number().default(1), token: secret(z.string()).optional() }) })]);
    expect(schema["user:create"]).toEqual({
      type: "object",
      properties: { page: { type: "number", default: 1 }, token: { type: "string", writeOnly: true, format: "password" } },
    });
  });

  test("leaves out a default computed by a function, which has no one value to document", () => {
    const schema = generateOpenApiSchemas([signUp({ inputs: z.object({ id: z.string().default(() => randomUUID()), kind: z.string().default("plain") }) })]);
    expect(schema["user:create"]!.properties).toEqual({ id: { type: "string" }, kind: { type: "string", default: "plain" } });
  });

  test("takes the registry, its entries or plain actions alike", () => {
    const registry = new ActionRegistry(rootContainer.createChildContainer());
    registry.add(signUp());
    registry.add(ping);
    const expected = generateOpenApiSchemas([signUp(), ping]);
    expect(generateOpenApiSchemas(registry)).toEqual(expected);
    expect(generateOpenApiSchemas(registry.list())).toEqual(expected);
  });

  test("names the action whose inputs zod cannot convert", () => {
    const inputs = z.object({ a: z.string().meta({ id: "Same" }), b: z.number().meta({ id: "Same" }) });
    let thrown: unknown;
    try {
      generateOpenApiSchemas([signUp({ inputs })]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypedError);
    expect(thrown).toMatchObject({ type: ErrorType.SERVER_INITIALIZATION, message: expect.stringContaining('"user:create"') });
  });
});

describe("inputJsonSchema", () => {
  test("converts one inputs schema once, so the OpenAPI document and the MCP catalog share it", () => {
    const inputs = z.object({ id: z.coerce.number().int() });
    expect(inputJsonSchema(inputs)).toBe(inputJsonSchema(inputs));
  });

  test("answers with the schema read from the OpenAPI cache for that action's inputs", () => {
    const action = signUp();
    const cached: Record<string, JSONSchema> = { "user:create": { type: "object", description: "from the cache" } };
    rememberInputJsonSchemas([action], cached);
    expect(inputJsonSchema(action.inputs!)).toBe(cached["user:create"]);
  });
});

describe("computeActionsHash", () => {
  const base = computeActionsHash([signUp(), ping]);

  test("is a SHA-256 hex digest, equal for an equal action set in any order", () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(computeActionsHash([ping, signUp()])).toBe(base);
    const registry = new ActionRegistry(rootContainer.createChildContainer());
    registry.add(ping);
    registry.add(signUp());
    expect(computeActionsHash(registry)).toBe(base);
  });

  test("ignores what never reaches a schema: the run function, transforms' code", () => {
    expect(computeActionsHash([signUp({ run: async () => ({ other: true }) }), ping])).toBe(base);
    const trimmed = (fn: (text: string) => string) => signUp({ inputs: z.object({ name: z.string().transform(fn) }) });
    expect(computeActionsHash([trimmed((text) => text.trim())])).toBe(computeActionsHash([trimmed((text) => text.toUpperCase())]));
  });

  test("stays equal for a default computed by a function", () => {
    const withId = () => signUp({ inputs: z.object({ id: z.string().default(() => randomUUID()) }) });
    expect(computeActionsHash([withId()])).toBe(computeActionsHash([withId()]));
  });

  test("stays equal for a recursive schema", () => {
    const tree = () => fixtureActions().filter((action) => action.name === "tree:save");
    expect(computeActionsHash(tree())).toBe(computeActionsHash(tree()));
  });

  test.each([
    ["a check of a field", signUp({ inputs: z.object({ name: z.string().min(4), password: secret(z.string().min(8)) }) })],
    ["a field added", signUp({ inputs: z.object({ name: z.string().min(3), password: secret(z.string().min(8)), age: z.number().optional() }) })],
    ["a field made optional", signUp({ inputs: z.object({ name: z.string().min(3).optional(), password: secret(z.string().min(8)) }) })],
    ["a secret mark removed", signUp({ inputs: z.object({ name: z.string().min(3), password: z.string().min(8) }) })],
    ["a field description", signUp({ inputs: z.object({ name: z.string().min(3).describe("Shown"), password: secret(z.string().min(8)) }) })],
    ["a default value", signUp({ inputs: z.object({ name: z.string().min(3).default("Ada"), password: secret(z.string().min(8)) }) })],
    ["the description", signUp({ description: "Register" })],
    ["the route", signUp({ web: { route: "/users", method: HTTP_METHOD.PUT } })],
    ["the method", signUp({ web: { route: "/user", method: HTTP_METHOD.POST } })],
    ["a RegExp route's flags", signUp({ web: { route: /^\/user$/i, method: HTTP_METHOD.PUT } })],
    ["the name", signUp({ name: "user:register" })],
  ])("changes with %s", (_change, changed) => {
    expect(computeActionsHash([changed, ping])).not.toBe(base);
  });

  test("changes when an action is added or removed", () => {
    expect(computeActionsHash([signUp()])).not.toBe(base);
    expect(computeActionsHash([signUp(), ping, { ...ping, name: "health:pong", web: { route: "/pong", method: HTTP_METHOD.GET } }])).not.toBe(base);
  });
});

describe("the schema cache", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "herald-openapi-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("lives at <app root>/.herald/openapi-cache.json", () => {
    expect(openApiCachePath("/srv/app")).toBe("/srv/app/.herald/openapi-cache.json");
  });

  test("round trip: what is written for a hash is read back for that hash, creating the folder", async () => {
    const actions = fixtureActions();
    const hash = computeActionsHash(actions);
    const schemas = generateOpenApiSchemas(actions);
    const path = openApiCachePath(dir);
    await writeSchemasCache(path, hash, schemas);
    await expect(loadCachedSchemas(path, hash)).resolves.toEqual(schemas);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ hash, schemas });
  });

  test("a newer write replaces the older one", async () => {
    const path = openApiCachePath(dir);
    await writeSchemasCache(path, "first", { "a:b": { type: "object" } });
    await writeSchemasCache(path, "second", { "a:b": { type: "string" } });
    await expect(loadCachedSchemas(path, "first")).resolves.toBeUndefined();
    await expect(loadCachedSchemas(path, "second")).resolves.toEqual({ "a:b": { type: "string" } });
  });

  test("is undefined for another action set's hash", async () => {
    const path = openApiCachePath(dir);
    const before = [signUp(), ping];
    await writeSchemasCache(path, computeActionsHash(before), generateOpenApiSchemas(before));
    const after = [signUp({ description: "Register" }), ping];
    await expect(loadCachedSchemas(path, computeActionsHash(after))).resolves.toBeUndefined();
  });

  test("is undefined when the file is missing, corrupt or not a cache", async () => {
    const path = openApiCachePath(dir);
    await expect(loadCachedSchemas(path, "h")).resolves.toBeUndefined();
    await writeSchemasCache(path, "h", {});
    for (const content of ['{"format":1,"hash":"h","schemas":{', "[]", '{"format":1,"hash":"h"}', '{"format":1,"hash":"h","schemas":{"a:b":3}}', '{"format":99,"hash":"h","schemas":{}}']) {
      await writeFile(path, content);
      await expect(loadCachedSchemas(path, "h")).resolves.toBeUndefined();
    }
  });
});
