import { z } from "zod";
import { generateOpenApiSchemas, isSecret, TypedError } from "herald";
import { testServer, useTestServer } from "herald/testing";
import { Message } from "../../sample-app/entities/message";
import { User } from "../../sample-app/entities/user";
import { serializeUser, zPublicUserSchema, zUserIdOrModel, zUserSchema } from "../../sample-app/schemas/user";
import { zMessageIdOrModel, zMessageSchema } from "../../sample-app/schemas/message";
import { usePostgresSchema } from "./support/postgres";
import { createUser, database, run, SAMPLE_APP, signedIn } from "./support/app";

const postgres = usePostgresSchema("sample_schemas");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });

let userId: number;
let messageId: number;
beforeAll(async () => {
  userId = await createUser({ name: "Ada", email: "ada@example.com", password: "correct horse" });
  const posted = await run("message:create", { body: "Hello" }, await signedIn("ada@example.com", "correct horse"));
  messageId = (posted.response as { message: { id: number } }).message.id;
});

function columnsOf(entity: Function): string[] {
  return database()
    .getMetadata(entity)
    .columns.map((column) => column.propertyName)
    .sort();
}

describe("model schemas generated from the entities", () => {
  test("zUserSchema and zMessageSchema have exactly the entities' columns", () => {
    expect(Object.keys(zUserSchema.shape).sort()).toEqual(columnsOf(User));
    expect(Object.keys(zMessageSchema.shape).sort()).toEqual(columnsOf(Message));
  });

  test("parse the rows the database returns", async () => {
    const user = await database().getRepository(User).findOneByOrFail({ id: userId });
    const message = await database().getRepository(Message).findOneByOrFail({ id: messageId });
    expect(zUserSchema.safeParse(user).success).toBe(true);
    expect(zMessageSchema.parse(message)).toEqual({
      id: messageId,
      body: "Hello",
      user_id: userId,
      created_at: message.created_at,
      updated_at: message.updated_at,
    });
  });

  test("the password hash is secret and never serialized", async () => {
    expect(isSecret(zUserSchema.shape.password_hash)).toBe(true);
    expect(Object.keys(zPublicUserSchema.shape)).not.toContain("password_hash");
    const user = await database().getRepository(User).findOneByOrFail({ id: userId });
    expect(serializeUser(user)).not.toHaveProperty("password_hash");
  });

  test("user_id accepts null, as the foreign key does once its user is gone", () => {
    const row = { id: 1, body: "x", user_id: null, created_at: new Date(), updated_at: new Date() };
    expect(zMessageSchema.safeParse(row).success).toBe(true);
  });
});

describe("zUserIdOrModel and zMessageIdOrModel", () => {
  const inputs = z.object({ user: zUserIdOrModel(), message: zMessageIdOrModel() });

  test("load ids from the database", async () => {
    const parsed = await inputs.parseAsync({ user: userId, message: String(messageId) });
    expect(parsed.user).toBeInstanceOf(User);
    expect(parsed.user).toMatchObject({ id: userId, name: "Ada" });
    expect(parsed.message).toBeInstanceOf(Message);
    expect(parsed.message).toMatchObject({ id: messageId, body: "Hello", user_id: userId });
  });

  test("pass models through", async () => {
    const user = await database().getRepository(User).findOneByOrFail({ id: userId });
    const message = { id: 999, body: "Not stored", user_id: null, created_at: new Date(), updated_at: new Date() };
    const parsed = await inputs.parseAsync({ user, message });
    expect(parsed.message).toEqual(message);
    expect(parsed.user).toMatchObject({ id: userId, name: "Ada" });
  });

  test.each([
    ["user", "User"],
    ["message", "Message"],
  ])("a missing %s id is a 404 naming %s", async (field, entityName) => {
    const params = { user: userId, message: messageId, [field]: 99_999 };
    const error = await inputs.parseAsync(params).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TypedError);
    expect(error).toMatchObject({ type: "CONNECTION_NOT_FOUND", message: `${entityName} 99999 not found`, status: 404 });
  });
});

describe("the sample actions' inputs as JSON Schema", () => {
  test("convert for the OpenAPI document: an id-or-model field is the id alone", () => {
    const schemas = generateOpenApiSchemas(testServer().registry);
    expect(schemas["user:view"]).toMatchObject({
      properties: { user: { anyOf: [{ type: "integer" }, { type: "string" }] } },
    });
    expect(JSON.stringify(schemas["user:view"]!.properties)).not.toContain('"object"');
    expect(JSON.stringify(schemas)).not.toContain("password_hash");
    expect(schemas["user:create"]).toMatchObject({ properties: { password: { writeOnly: true } } });
  });
});
