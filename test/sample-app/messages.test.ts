import { Connection, CONNECTION_TYPE, RUN_MODE } from "herald";
import { testServer, useTestServer } from "herald/testing";
import { Message } from "../../sample-app/entities/message";
import { User } from "../../sample-app/entities/user";
import { usePostgresSchema } from "./support/postgres";
import { createUser as create, database, run, SAMPLE_APP, signedIn, truncateAll, webConnection } from "./support/app";

const postgres = usePostgresSchema("sample_messages");
// The cli run mode has no task workers: the recurring messages:cleanup never fires on its own
// here, so only the calls of these tests delete messages.
useTestServer({ appDir: SAMPLE_APP, runMode: RUN_MODE.cli, env: { DATABASE_URL: postgres.url } });
beforeEach(truncateAll);

const PASSWORD = "correct horse";

/** Creates a user and returns a connection signed in as them, with their id. */
async function createUser(name: string): Promise<{ id: number; connection: Connection }> {
  const email = `${name.toLowerCase()}@example.com`;
  const id = await create({ name, email, password: PASSWORD });
  return { id, connection: await signedIn(email, PASSWORD) };
}

async function post(author: { connection: Connection }, body: string): Promise<number> {
  const result = await run("message:create", { body }, author.connection);
  expect(result.status).toBe(200);
  return (result.response as { message: { id: number } }).message.id;
}

describe("message:create", () => {
  test("stores the message under the signed-in user and returns it", async () => {
    const ada = await createUser("Ada");
    const result = await run("message:create", { body: "  Hello there  " }, ada.connection);
    expect(result.status).toBe(200);
    expect(result.response).toEqual({
      message: { id: expect.any(Number), body: "Hello there", user_id: ada.id, created_at: expect.any(Date), updated_at: expect.any(Date) },
    });
  });

  test("takes no author from the params: a userId is ignored", async () => {
    const ada = await createUser("Ada");
    const grace = await createUser("Grace");
    const result = await run("message:create", { body: "Hi", userId: grace.id }, ada.connection);
    expect((result.response as { message: { user_id: number } }).message.user_id).toBe(ada.id);
  });

  test.each([
    ["a connection without a session (CLI)", async () => new Connection({ type: CONNECTION_TYPE.cli })],
    ["an anonymous session", webConnection],
  ])("is refused with 401 on %s, and stores nothing", async (_label, connection) => {
    const result = await run("message:create", { body: "Hello" }, await connection());
    expect(result.status).toBe(401);
    expect(result.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Sign in first" });
    expect(await database().getRepository(Message).count()).toBe(0);
  });

  test("sent again with its idempotency key, a message is posted once and the retry gets the first answer", async () => {
    const ada = await createUser("Ada");
    const key = "6f1c5a52-9c55-4c2f-8a0e-3f0c1b2d4e5f";
    const first = await testServer().runAction("message:create", { body: "Only once" }, ada.connection, { idempotencyKey: key });
    const retry = await testServer().runAction("message:create", { body: "Only once" }, ada.connection, { idempotencyKey: key });
    expect(retry.replayed).toBe(true);
    expect(retry.answer).toEqual(first.answer);
    expect(await database().getRepository(Message).count()).toBe(1);
    const otherBody = await testServer().runAction("message:create", { body: "Another" }, ada.connection, { idempotencyKey: key });
    expect(otherBody.status).toBe(422);
    expect(await database().getRepository(Message).count()).toBe(1);
  });

  test("an empty body is rejected", async () => {
    const ada = await createUser("Ada");
    const result = await run("message:create", { body: "   " }, ada.connection);
    expect(result.status).toBe(422);
    expect(result.error).toMatchObject({ key: "body" });
  });
});

describe("messages:list", () => {
  test("lists newest first with the author's name, ten to a page by default", async () => {
    const ada = await createUser("Ada");
    const grace = await createUser("Grace");
    const ids: number[] = [];
    for (let index = 1; index <= 12; index++) ids.push(await post(index % 2 ? ada : grace, `message ${index}`));

    const first = await run("messages:list", {});
    expect(first.status).toBe(200);
    const { messages, pagination } = first.response as { messages: unknown[]; pagination: unknown };
    expect(pagination).toEqual({ page: 1, limit: 10, total: 12, pages: 2 });
    expect(messages).toHaveLength(10);
    expect(messages[0]).toEqual({ id: ids[11], body: "message 12", user_name: "Grace" });
    expect(messages[1]).toEqual({ id: ids[10], body: "message 11", user_name: "Ada" });

    const second = await run("messages:list", { page: "2", limit: "10" });
    expect(second.response).toEqual({
      messages: [
        { id: ids[1], body: "message 2", user_name: "Grace" },
        { id: ids[0], body: "message 1", user_name: "Ada" },
      ],
      pagination: { page: 2, limit: 10, total: 12, pages: 2 },
    });
  });

  test("user_name is null when no user matches", async () => {
    const ghost = await createUser("Ghost");
    const id = await post(ghost, "boo");
    await database().getRepository(User).delete({ id: ghost.id });
    const result = await run("messages:list", {});
    expect(result.response).toEqual({
      messages: [{ id, body: "boo", user_name: null }],
      pagination: { page: 1, limit: 10, total: 1, pages: 1 },
    });
  });

  test("an empty list has zero pages", async () => {
    const result = await run("messages:list", {});
    expect(result.response).toEqual({ messages: [], pagination: { page: 1, limit: 10, total: 0, pages: 0 } });
  });

  test.each([[{ limit: 51 }], [{ limit: 0 }], [{ page: 0 }], [{ page: "two" }]])("rejects %p with 422", async (params) => {
    const result = await run("messages:list", params);
    expect(result.status).toBe(422);
  });

  test("accepts the largest page size", async () => {
    const result = await run("messages:list", { limit: 50 });
    expect(result.status).toBe(200);
    expect((result.response as { pagination: { limit: number } }).pagination.limit).toBe(50);
  });
});

describe("messages:cleanup", () => {
  async function age(id: number, interval: string): Promise<void> {
    await database().query(`UPDATE "messages" SET "created_at" = now() - $2::interval WHERE "id" = $1`, [id, interval]);
  }

  test("deletes the messages older than a day by default, and only those", async () => {
    const ada = await createUser("Ada");
    const old = await post(ada, "old");
    const older = await post(ada, "older");
    const fresh = await post(ada, "fresh");
    await age(old, "25 hours");
    await age(older, "30 days");
    await age(fresh, "23 hours");

    const result = await run("messages:cleanup", {});
    expect(result).toMatchObject({ status: 200, response: { messagesDeleted: 2 } });
    const left = await database().getRepository(Message).find();
    expect(left.map((message) => message.id)).toEqual([fresh]);
  });

  test("takes the age in milliseconds, coerced from a string", async () => {
    const ada = await createUser("Ada");
    const minuteOld = await post(ada, "a minute old");
    const justNow = await post(ada, "just now");
    await age(minuteOld, "1 minute");

    const result = await run("messages:cleanup", { age: "30000" });
    expect(result.response).toEqual({ messagesDeleted: 1 });
    expect((await database().getRepository(Message).find()).map((message) => message.id)).toEqual([justNow]);
  });

  test("with nothing to delete, reports zero", async () => {
    const result = await run("messages:cleanup", { age: 0 });
    expect(result.response).toEqual({ messagesDeleted: 0 });
  });

  test("is a recurring task on the default queue", async () => {
    const action = testServer().registry.get("messages:cleanup")?.action;
    expect(action?.task).toEqual({ queue: "default", frequency: 3_600_000 });
  });

  test("rejects a negative age", async () => {
    const result = await run("messages:cleanup", { age: -1 });
    expect(result.status).toBe(422);
  });
});
