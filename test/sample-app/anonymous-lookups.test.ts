import { serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "./support/postgres";
import { createUser, database, SAMPLE_APP, truncateAll } from "./support/app";

const postgres = usePostgresSchema("sample_anonymous");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });
beforeEach(truncateAll);

/** Every statement the app's DataSource sends to PostgreSQL while `work` runs. */
async function queriesDuring(work: () => Promise<void>): Promise<string[]> {
  const logger = database().logger;
  const logQuery = logger.logQuery.bind(logger);
  const seen: string[] = [];
  logger.logQuery = (query, parameters, queryRunner) => {
    seen.push(query);
    return logQuery(query, parameters, queryRunner);
  };
  try {
    await work();
  } finally {
    logger.logQuery = logQuery;
  }
  return seen;
}

async function anonymousGet(path: string): Promise<{ status: number; body: { error: Record<string, unknown> } }> {
  const response = await fetch(`${serverUrl()}/api${path}`);
  return { status: response.status, body: (await response.json()) as { error: Record<string, unknown> } };
}

describe("an anonymous GET /api/user/:id", () => {
  test("is the same 401 for an existing and a missing id, and sends no query to PostgreSQL", async () => {
    const existing = await createUser({ name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" });
    const answers: Awaited<ReturnType<typeof anonymousGet>>[] = [];
    const queries = await queriesDuring(async () => {
      answers.push(await anonymousGet(`/user/${existing}`), await anonymousGet(`/user/${existing + 1000}`));
    });
    expect(queries).toEqual([]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED", message: "Sign in first" });
    }
    const withoutTimestamp = ({ error: { timestamp: _timestamp, ...rest } }: { error: Record<string, unknown> }) => rest;
    expect(withoutTimestamp(answers[0]!.body)).toEqual(withoutTimestamp(answers[1]!.body));
  });

  test("the counter sees the statements the app sends, so an empty count above means no query", async () => {
    const queries = await queriesDuring(async () => {
      await createUser({ name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" });
    });
    expect(queries.some((query) => query.includes("INSERT"))).toBe(true);
  });
});
