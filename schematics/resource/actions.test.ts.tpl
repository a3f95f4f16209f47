import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType } from "herald";
import { serverUrl, testServer, useTestServer } from "herald/testing";

// The embedded database in memory by default; PostgreSQL when DATABASE_URL is set, where other
// runs may have left {{pluralWords}}: each test looks for the rows it made, never for an empty table.
useTestServer({ appDir: join(__dirname, "{{appRoot}}") });

interface Answer {
  status: number;
  /** The JSON answer, whose shape the expectations check. */
  body: any;
}

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${serverUrl()}/api/{{pluralKebab}}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** A title no other run has used, so a test finds its own row among those already there. */
const uniqueTitle = (label: string) => `${label} ${Date.now()} ${Math.random()}`;

async function create(title: string) {
  const created = await call("POST", "", { title });
  expect(created.status).toBe(200);
  return created.body.{{camel}};
}

test("POST /api/{{pluralKebab}} creates a {{words}}, and GET /api/{{pluralKebab}}/:id shows it", async () => {
  const title = uniqueTitle("first");
  const created = await create(title);
  expect(created).toEqual({ id: expect.any(Number), title, created_at: expect.any(String), updated_at: expect.any(String) });
  expect(Date.parse(created.created_at)).not.toBeNaN();

  const viewed = await call("GET", `/${created.id}`);
  expect(viewed).toEqual({ status: 200, body: { {{camel}}: created } });
});

test("GET /api/{{pluralKebab}} lists them newest first, one page at a time", async () => {
  const older = await create(uniqueTitle("older"));
  const newer = await create(uniqueTitle("newer"));

  const listed = await call("GET", "?limit=100");
  expect(listed.status).toBe(200);
  const ids: number[] = listed.body.{{pluralCamel}}.map((row: { id: number }) => row.id);
  expect(ids).toContain(older.id);
  expect(ids.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
  expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
  expect(listed.body.pagination).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
  expect(listed.body.pagination.total).toBeGreaterThanOrEqual(2);

  const firstOfOne = await call("GET", "?limit=1");
  expect(firstOfOne.body.{{pluralCamel}}).toHaveLength(1);
  expect(firstOfOne.body.pagination.pages).toBeGreaterThanOrEqual(2);
});

test("PATCH /api/{{pluralKebab}}/:id changes the fields it is given and keeps the others", async () => {
  const created = await create(uniqueTitle("before"));
  const title = uniqueTitle("after");

  const edited = await call("PATCH", `/${created.id}`, { title });
  expect(edited.status).toBe(200);
  expect(edited.body.{{camel}}).toMatchObject({ id: created.id, title, created_at: created.created_at });
  expect(Date.parse(edited.body.{{camel}}.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

  const unchanged = await call("PATCH", `/${created.id}`, {});
  expect(unchanged.body.{{camel}}).toMatchObject({ id: created.id, title });
  expect((await call("GET", `/${created.id}`)).body.{{camel}}.title).toBe(title);
});

test("DELETE /api/{{pluralKebab}}/:id deletes it: then it is not found, 404", async () => {
  const created = await create(uniqueTitle("doomed"));

  const deleted = await call("DELETE", `/${created.id}`);
  expect(deleted).toEqual({ status: 200, body: { {{camel}}: created } });

  const calls: [string, unknown?][] = [["GET"], ["PATCH", { title: "again" }], ["DELETE"]];
  for (const [method, body] of calls) {
    const missing = await call(method, `/${created.id}`, body);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: ErrorType.CONNECTION_NOT_FOUND, key: "id", value: created.id });
  }
});

test("bad input is refused with 422, naming the param", async () => {
  const missing = await call("POST", "", {});
  expect(missing.status).toBe(422);
  expect(missing.body.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_REQUIRED, key: "title" });

  const tooLong = await call("POST", "", { title: "x".repeat(201) });
  expect(tooLong.status).toBe(422);
  expect(tooLong.body.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "title" });

  const nul = await call("POST", "", { title: "a\u0000b" });
  expect(nul.status).toBe(422);

  const notAnId = await call("GET", "/abc");
  expect(notAnId.status).toBe(422);
  expect(notAnId.body.error).toMatchObject({ key: "id" });

  const tooBig = await call("GET", "?limit=101");
  expect(tooBig.status).toBe(422);
  expect(tooBig.body.error).toMatchObject({ key: "limit" });
});

test("{{kebab}}:view runs the same from any transport: here through the dispatcher, as the CLI calls it", async () => {
  const created = await create(uniqueTitle("anywhere"));
  const cli = new Connection({ type: CONNECTION_TYPE.cli });

  const viewed = await testServer().runAction("{{kebab}}:view", { id: String(created.id) }, cli);
  expect(viewed.error).toBeUndefined();
  expect(JSON.parse(JSON.stringify(viewed.response))).toEqual({ {{camel}}: created });

  await call("DELETE", `/${created.id}`);
  const gone = await testServer().runAction("{{kebab}}:view", { id: created.id }, cli);
  expect(gone.error?.type).toBe(ErrorType.CONNECTION_NOT_FOUND);
});
