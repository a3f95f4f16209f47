import { generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import WebSocket from "ws";
import { z } from "zod";
import { isTypedError, TaskService, type JobInfo } from "herald";
import { HOOK_TIMEOUT, serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import type { ActionDefinition } from "../../src/core/action";
import { TaskRuntime } from "../../src/transports/tasks/runtime";
import { User } from "../../sample-app/entities/user";
import { hashPassword } from "../../sample-app/lib/passwords";
import { database, SAMPLE_APP } from "../sample-app/support/app";
import { usePostgresSchema } from "../sample-app/support/postgres";
import { arbitraryFromZod } from "./support/arbitrary-from-zod";
import { assertErrorBody, assertWellFormedAnswer, nastyValue, parsedOrText, prototypeSnapshot } from "./support/hostile";

/**
 * Hostile input against the REAL sample app, on HTTP, WebSocket and background tasks: the params
 * of each action are generated from its own `inputs` schema (so they follow the app as it
 * changes), then spoiled — wrong types per field, strings of 100 kB, nesting far beyond 100
 * levels, unicode edge cases inside otherwise valid values, `__proto__` / `constructor` /
 * `prototype` keys at the top and nested. Every answer must be a success or a typed client error
 * without a stack, and no prototype of this process (which runs the app and its workers) may change.
 */

const ADMIN_API_KEY = "hostile-admin-key-of-at-least-32-characters";
const PASSWORD = "correct horse battery";
const postgres = usePostgresSchema("sample_hostile");
useTestServer({
  appDir: SAMPLE_APP,
  env: {
    DATABASE_URL: postgres.url,
    ADMIN_API_KEY,
    // Production, because that is where an error body must never carry a stack.
    NODE_ENV: "production",
    SESSION_SECRET: "hostile-session-secret-of-at-least-32-characters",
    // The sample app runs the built-in authorization server, whose keys production requires.
    OAUTH_JWKS: JSON.stringify({ keys: [{ ...generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" }), alg: "ES256", kid: "hostile" }] }),
    OAUTH_COOKIE_SECRETS: "hostile-oauth-cookie-secret-of-at-least-32-characters",
    HOST: "127.0.0.1",
    // In-process queues: the worker runs in this process, so its prototypes are the ones checked.
    REDIS_URL: "",
    WS_MAX_MESSAGES_PER_SECOND: "1000000",
    // Every sign-in of this file comes from 127.0.0.1, many as one user; the limits are tested in
    // test/sample-app/account-protection.test.ts.
    PASSWORD_FAILURES_PER_ACCOUNT: "1000000",
    SIGN_IN_FAILURES_PER_ADDRESS: "1000000",
    LOG_LEVEL: "fatal",
  },
});

/**
 * Per action and transport, the ten examples of everyKindOnce included: enough to meet every kind
 * of spoiling a few times, well within a minute for the file.
 */
const RUNS = 30;
const TEST_TIMEOUT = 60_000;

/** Every action of the sample app; a test below fails when the app gains one this list lacks. */
const ACTIONS = [
  "exports:start",
  "message:create",
  "messages:cleanup",
  "messages:export",
  "messages:list",
  "session:create",
  "session:destroy",
  "session:view",
  "status",
  "tasks:watch",
  "user:create",
  "user:edit",
  "user:view",
];

/** The actions a network caller reaches: messages:cleanup allows only the task workers and the CLI. */
const NETWORK_ACTIONS = ACTIONS.filter((name) => name !== "messages:cleanup");

/**
 * Actions that can end the session they run in (a new password regenerates it, signing out
 * destroys it) or change the account it belongs to: each of their calls gets a user and a
 * session of its own, so that the next call still gets past RequireSignIn.
 */
const SESSION_ENDING = new Set(["user:edit", "session:destroy"]);

const prototypesBefore = prototypeSnapshot();

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  expect(prototypeSnapshot()).toEqual(prototypesBefore);
});

// ---------------------------------------------------------------------------------------------
// Spoiling params

const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"];

/** JSON text that assigns to a prototype if any layer copies it carelessly. */
const POLLUTERS = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
];

/**
 * Code points that have broken encoders, databases and logs: NUL, lone and reversed surrogates,
 * direction overrides and marks, zero-width and byte-order characters, combining marks, emoji
 * sequences, noncharacters and JavaScript's line separators.
 */
const UNICODE_EDGES = ["\u0000", "\uD800", "\uDFFF", "\uDFFF\uD800", "\u202E", "\u200F", "\u061C", "\u200B", "\uFEFF", "e\u0301\u0301", "👩‍👩‍👧", "🏳️‍🌈", "𝕏", "\uFFFF", "\u2028\u2029"];

/** About 100 kB of one unit, ASCII or not. */
const hugeString = fc.constantFrom("x", "é", "𝕏", "\u0000", "\u202E", "\uD800").map((unit) => unit.repeat(Math.ceil(100_000 / unit.length)));

type Params = Record<string, unknown>;
type Spoiler = (params: Params) => string;

/** `params` as JSON text with one more field, written as text so that a `__proto__` key stays a key. */
function withField(params: Params, name: string, valueText: string): string {
  const text = JSON.stringify(params);
  return `${text.slice(0, -1)}${text.length > 2 ? "," : ""}${JSON.stringify(name)}:${valueText}}`;
}

/** A value nested `depth` levels deep, as text: building it would overflow this test's own stack. */
function deepText(depth: number, arrays: boolean, innermost: string): string {
  return arrays ? `${"[".repeat(depth)}${innermost}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}${innermost}${"}".repeat(depth)}`;
}

function insertAt(text: string, inserted: string, position: number): string {
  const at = position % (text.length + 1);
  return `${text.slice(0, at)}${inserted}${text.slice(at)}`;
}

/** The ways of spoiling the params of an action whose fields are `fields`; `maxDepth` bounds the nesting. */
function spoilers(fields: readonly string[], maxDepth: number): fc.Arbitrary<Spoiler> {
  const field = fc.constantFrom(...fields, ...PROTOTYPE_KEYS, "polluted");
  const polluter = fc.constantFrom(...POLLUTERS);
  const depth = fc.integer({ min: 101, max: maxDepth });
  return fc.oneof(
    // Left as they are: valid params must still succeed or fail as the app decides.
    fc.constant<Spoiler>((params) => JSON.stringify(params)),
    // A wrong type (or a nasty string, an odd number, a nested object with prototype keys) in one field.
    fc.tuple(field, nastyValue).map(([name, value]): Spoiler => (params) => withField(params, name, JSON.stringify(value) ?? "null")),
    // A unicode edge case inside the field's valid value, which then often passes validation and reaches the database.
    fc.tuple(field, fc.constantFrom(...UNICODE_EDGES), fc.nat()).map(([name, edge, position]): Spoiler => (params) => {
      const current = Object.hasOwn(params, name) ? params[name] : undefined;
      return withField(params, name, JSON.stringify(typeof current === "string" ? insertAt(current, edge, position) : edge));
    }),
    fc.tuple(field, hugeString).map(([name, huge]): Spoiler => (params) => withField(params, name, JSON.stringify(huge))),
    field.map((name): Spoiler => (params) => JSON.stringify(Object.fromEntries(Object.entries(params).filter(([key]) => key !== name)))),
    // Prototype keys at the top level …
    fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), polluter).map(([name, text]): Spoiler => (params) => withField(params, name, text)),
    // … and nested in a field, directly, in an array, or one object down.
    fc.tuple(field, polluter, fc.constantFrom("%", "[%]", '{"a":%}')).map(([name, text, wrapper]): Spoiler => (params) => withField(params, name, wrapper.replace("%", text))),
    fc.tuple(field, depth, fc.boolean(), fc.option(polluter)).map(([name, levels, arrays, innermost]): Spoiler => (params) => withField(params, name, deepText(levels, arrays, innermost ?? "1"))),
    // Not an object of params at all.
    fc.oneof(nastyValue.map((value) => JSON.stringify(value) ?? "null"), polluter, fc.tuple(depth, fc.boolean()).map(([levels, arrays]) => deepText(levels, arrays, "1"))).map((text): Spoiler => () => text),
  );
}

function isRecord(value: unknown): value is Params {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldsOf(action: ActionDefinition): string[] {
  const inputs = action.inputs as z.ZodType | undefined;
  return inputs instanceof z.ZodObject ? Object.keys(inputs.shape) : [];
}

/** Valid params of the action, from its schema (or none, for an action without inputs), as JSON text spoiled most of the time. */
function hostileParams(action: ActionDefinition, maxDepth = 20_000): fc.Arbitrary<string> {
  const valid = action.inputs ? arbitraryFromZod(action.inputs as z.ZodType) : fc.constant({});
  return fc.tuple(valid, spoilers(fieldsOf(action), maxDepth)).map(([params, spoil]) => spoil(isRecord(params) ? params : {}));
}

/** One example of each kind of spoiling, run first on every run, so that none is left to chance. */
function everyKindOnce(action: ActionDefinition, maxDepth = 20_000): [string][] {
  const valid = action.inputs ? fc.sample(arbitraryFromZod(action.inputs as z.ZodType), { numRuns: 1, seed: 42 })[0] : {};
  const params = isRecord(valid) ? valid : {};
  const name = fieldsOf(action)[0] ?? "anything";
  const current = typeof params[name] === "string" ? (params[name] as string) : "";
  return [
    JSON.stringify(params),
    withField(params, name, '{"not":["what",{"it":"expects"}]}'),
    withField(params, name, JSON.stringify(`${current}\u0000\uD800\u202E👩‍👩‍👧`)),
    withField(params, name, JSON.stringify("x".repeat(100_000))),
    withField(params, "__proto__", POLLUTERS[0]!),
    withField(params, "constructor", '{"prototype":{"polluted":"yes"}}'),
    withField(params, name, `[${POLLUTERS[1]}]`),
    withField(params, name, deepText(Math.min(maxDepth, 20_000), false, POLLUTERS[0]!)),
    deepText(Math.min(maxDepth, 5_000), true, "1"),
    '"params"',
  ].map((text) => [text]);
}

// ---------------------------------------------------------------------------------------------
// Callers

let userCount = 0;
let passwordHash = "";
/** The session cookie of a user who stays signed in for the whole file. */
let signedInCookie = "";

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${serverUrl()}/api/session`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

/** A new user, written straight to the table (hashing once, not per user), signed in through session:create. */
async function newSignedInUser(): Promise<string> {
  userCount += 1;
  // `.invalid` is longer than any top-level domain the generators make, so no generated sign-up takes this address.
  const email = `signed-in-${userCount}@hostile.invalid`;
  await database().getRepository(User).insert({ name: `Signed In ${userCount}`, email, password_hash: passwordHash });
  return signIn(email);
}

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
  signedInCookie = await newSignedInUser();
}, HOOK_TIMEOUT);

/** Headers that get every call past RequireSignIn and RequireApiKey, to the action's validation and run. */
async function callerHeaders(action: string): Promise<Record<string, string>> {
  const cookie = SESSION_ENDING.has(action) ? await newSignedInUser() : signedInCookie;
  return { cookie, "x-api-key": ADMIN_API_KEY };
}

function actionNamed(name: string): ActionDefinition {
  const action = testServer().registry.get(name)?.action;
  if (!action) throw new Error(`the sample app has no action ${name}`);
  return action;
}

/** In production an error body never carries a stack, whatever the input. */
function assertNoStack(body: unknown): void {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (error && "stack" in error) throw new Error(`an error body with a stack: ${JSON.stringify(error).slice(0, 500)}`);
}

test("the list of actions is the sample app's", () => {
  expect(testServer().registry.list().map((entry) => entry.name).sort()).toEqual(ACTIONS);
});

// ---------------------------------------------------------------------------------------------
// HTTP

/** Any parsed JSON value as text; objects nested too deep for JSON.stringify become a stand-in. */
function textOf(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return "[deep]";
  }
}

/** Percent-encodes the UTF-8 of `text`; encodeURIComponent throws on a lone surrogate, which a client would send as U+FFFD. */
function pathSegment(text: string): string {
  return [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
}

/** A GET's params travel in the query string, which is flat: each top-level value as text (objects as JSON). */
function queryOf(params: unknown): string {
  const entries = isRecord(params) ? Object.entries(params) : [["q", params] as const];
  return new URLSearchParams(entries.map(([name, value]) => [name, textOf(value)])).toString();
}

/** Node refuses a request head over this size (431) before any of Herald runs. */
const NODE_MAX_HEADER_SIZE = 16 * 1024;

async function overHttp(name: string, paramsText: string): Promise<void> {
  const web = actionNamed(name).web!;
  const params = parsedOrText(paramsText);
  const path = String(web.route).replace(/:(\w+)/g, (_match, key: string) => {
    const value = isRecord(params) && Object.hasOwn(params, key) ? params[key] : "none";
    return pathSegment(textOf(value));
  });
  const method = web.method.toUpperCase();
  const headers = await callerHeaders(name);
  let url = `${serverUrl()}/api${path}`;
  let response: Response;
  if (method === "GET") {
    url = `${url}?${queryOf(params)}`;
    response = await fetch(url, { headers });
  } else {
    response = await fetch(url, { method, headers: { ...headers, "content-type": "application/json" }, body: paramsText });
  }
  const body = parsedOrText(await response.text());
  if (response.status === 431) return void expect(url.length).toBeGreaterThan(NODE_MAX_HEADER_SIZE / 2);
  assertWellFormedAnswer(response.status, body);
  assertNoStack(body);
}

describe("HTTP", () => {
  test.each(NETWORK_ACTIONS)("%s: spoiled params get a success or a typed client error", async (name) => {
    const action = actionNamed(name);
    expect(action.web).toBeDefined();
    await fc.assert(
      fc.asyncProperty(hostileParams(action), (paramsText) => overHttp(name, paramsText)),
      { numRuns: RUNS, examples: everyKindOnce(action) },
    );
  }, TEST_TIMEOUT);
});

// ---------------------------------------------------------------------------------------------
// WebSocket

/** A `ws` client that sends the caller's cookie and API key with the upgrade, as a script (not a page) may. */
class Socket {
  private readonly replies: Record<string, unknown>[] = [];
  private waiting: ((reply: Record<string, unknown>) => void) | undefined;
  readonly closed: Promise<number>;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const reply = parsedOrText(data.toString());
      const message = isRecord(reply) ? reply : { unparseable: reply };
      if (this.waiting) this.waiting(message);
      else this.replies.push(message);
    });
    ws.on("error", () => undefined);
    this.closed = new Promise((resolve) => ws.once("close", (code) => resolve(code)));
  }

  static open(headers: Record<string, string>): Promise<Socket> {
    const ws = new WebSocket(`${serverUrl().replace(/^http/, "ws")}/ws`, { headers });
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new Socket(ws)));
      ws.once("error", reject);
    });
  }

  /** Sends one frame and resolves with the next reply, or with the close code when the server closed the socket. */
  exchange(frame: string): Promise<Record<string, unknown>> {
    const reply = new Promise<Record<string, unknown>>((resolve) => {
      const queued = this.replies.shift();
      if (queued) return resolve(queued);
      this.waiting = (message) => {
        this.waiting = undefined;
        resolve(message);
      };
    });
    this.ws.send(frame);
    return Promise.race([reply, this.closed.then((code) => ({ closedWith: code }))]);
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  async close(): Promise<void> {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
    await this.closed;
  }
}

describe("WebSocket", () => {
  let messageNumber = 0;

  test.each(NETWORK_ACTIONS)("%s: spoiled params get a response or a typed client error", async (name) => {
    const action = actionNamed(name);
    let socket: Socket | undefined;
    try {
      await fc.assert(
        fc.asyncProperty(hostileParams(action), async (paramsText) => {
          if (!socket?.isOpen || SESSION_ENDING.has(name)) {
            await socket?.close();
            socket = await Socket.open(await callerHeaders(name));
          }
          messageNumber += 1;
          const messageId = `h${messageNumber}`;
          const answer = await socket.exchange(`{"messageType":"action","messageId":"${messageId}","action":${JSON.stringify(name)},"params":${paramsText}}`);
          // A frame over the hard frame limit (4 × WS_MAX_MESSAGE_SIZE) closes the socket with 1009: a bounded answer.
          if ("closedWith" in answer) return void expect(answer.closedWith).toBe(1009);
          assertNoStack(answer);
          if ("response" in answer) return void expect(answer.messageId).toBe(messageId);
          assertErrorBody(answer);
        }),
        { numRuns: RUNS, examples: everyKindOnce(action) },
      );
    } finally {
      await socket?.close();
    }
  }, TEST_TIMEOUT);
});

// ---------------------------------------------------------------------------------------------
// Background tasks

/**
 * The in-process queue copies each job through JSON.stringify, which overflows past a few
 * thousand levels in this process: deeper params could not even be queued by the test, which
 * puts jobs straight into the driver.
 */
const DRIVER_MAX_DEPTH = 1_000;

function tasks(): TaskService {
  return testServer().container.resolve(TaskService);
}

async function finishedJob(queue: string, jobId: string): Promise<JobInfo> {
  await waitFor(async () => ["succeeded", "failed"].includes((await tasks().getJob(queue, jobId))?.status ?? ""), { interval: 5, timeout: 15_000 });
  return (await tasks().getJob(queue, jobId))!;
}

/** How a job ended: a success, or a failure whose stored error is a typed client error without a stack. */
async function assertJobEndsWell(queue: string, jobId: string, action: string, paramsText: string): Promise<void> {
  const job = await finishedJob(queue, jobId);
  if (job.status === "succeeded") return;
  assertErrorBody({ error: job.error });
  assertNoStack({ error: job.error });
}

describe("background tasks", () => {
  const taskActions = () => ACTIONS.filter((name) => actionNamed(name).task);

  test("the sample app has task actions to test", () => {
    expect(taskActions()).toEqual(["messages:cleanup", "messages:export"]);
  });

  test("TaskService.enqueue: spoiled params are refused with a typed client error, or the job succeeds or fails with one", async () => {
    for (const name of taskActions()) {
      const action = actionNamed(name);
      await fc.assert(
        fc.asyncProperty(hostileParams(action), async (paramsText) => {
          let jobId: string;
          try {
            jobId = await tasks().enqueue(name, JSON.parse(paramsText) as Params, { retries: 0 });
          } catch (error) {
            if (!isTypedError(error)) throw error;
            expect(error.status).toBeGreaterThanOrEqual(400);
            expect(error.status).toBeLessThan(500);
            return;
          }
          await assertJobEndsWell(action.task!.queue, jobId, name, paramsText);
        }),
        { numRuns: RUNS, examples: everyKindOnce(action) },
      );
    }
    const queue = actionNamed("messages:cleanup").task!.queue;
    const jobId = await tasks().enqueue("messages:cleanup", { age: 86_400_000 }, { retries: 0 });
    await waitFor(async () => (await tasks().getJob(queue, jobId))?.status === "succeeded", { interval: 5, timeout: 15_000 });
  }, TEST_TIMEOUT);

  /**
   * TaskService validates before it queues, so the worker's own validation is reached only by a
   * job that skipped it: one queued by another version of the app, or written into Redis by
   * someone else. Such jobs go straight to the queue driver here, for task actions and for
   * actions that are no task at all (the worker runs whatever action a job names).
   */
  test.each(["messages:cleanup", "user:create", "message:create", "user:view", "messages:list"])(
    "a job that skipped validation, for %s: it fails with a typed client error or succeeds, and the worker keeps running",
    async (name) => {
      const action = actionNamed(name);
      const queue = actionNamed("messages:cleanup").task!.queue;
      const driver = await testServer().container.resolve(TaskRuntime).driver();
      await fc.assert(
        fc.asyncProperty(hostileParams(action, DRIVER_MAX_DEPTH), async (paramsText) => {
          const [jobId] = await driver.enqueue(queue, [
            { payload: { action: name, params: JSON.parse(paramsText) as Params }, retries: 0, backoff: { strategy: "fixed", delayMs: 0 } },
          ]);
          await assertJobEndsWell(queue, jobId!, name, paramsText);
        }),
        { numRuns: RUNS, examples: everyKindOnce(action, DRIVER_MAX_DEPTH) },
      );
      const jobId = await tasks().enqueue("messages:cleanup", { age: 86_400_000 }, { retries: 0 });
      await waitFor(async () => (await tasks().getJob(queue, jobId))?.status === "succeeded", { interval: 5, timeout: 15_000 });
    },
    TEST_TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// Inputs that once reached PostgreSQL or JSON.stringify and failed there, each with its answer now.

describe("inputs this file once found to fail with a 500 or a crash", () => {
  async function call(method: string, path: string, body?: unknown, signedIn = true): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { "x-api-key": ADMIN_API_KEY, ...(signedIn ? { cookie: signedInCookie } : {}) };
    const init: RequestInit = body === undefined ? { method, headers } : { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) };
    const response = await fetch(`${serverUrl()}/api${path}`, init);
    return { status: response.status, body: await response.json() };
  }

  // PostgreSQL's text types cannot store U+0000 (SQLSTATE 22021): refused by validation now.
  test.each([
    ["message:create", "PUT", "/message", { body: "a\u0000b" }, "body"],
    ["user:create", "PUT", "/user", { name: "Ada\u0000", email: "nul@example.com", password: "12345678" }, "name"],
    ["user:edit", "POST", "/user", { name: "Ada\u0000" }, "name"],
  ])("%s: a NUL character in stored text is a validation error", async (_action, method, path, body, key) => {
    expect(await call(method, path, body)).toMatchObject({ status: 422, body: { error: { type: "CONNECTION_ACTION_PARAM_VALIDATION", key } } });
  });

  // now() - age fell before 4713 BC (SQLSTATE 22008): age is bounded now.
  test("messages:cleanup: an age past a hundred years is a validation error at enqueue", async () => {
    const refused = await tasks().enqueue("messages:cleanup", { age: Number.MAX_SAFE_INTEGER }).catch((error: unknown) => error);
    expect(isTypedError(refused) && refused.type).toBe("CONNECTION_ACTION_PARAM_VALIDATION");
  });

  // users.id is an integer: the lookup failed with SQLSTATE 22003. Such an id matches no user.
  test("user:view: an id beyond the id column's range is not found, and without signing in it is not looked up", async () => {
    expect(await call("GET", "/user/2147483648")).toMatchObject({
      status: 404,
      body: { error: { type: "CONNECTION_NOT_FOUND", value: 2147483648 } },
    });
    expect(await call("GET", "/user/2147483648", undefined, false)).toMatchObject({
      status: 401,
      body: { error: { type: "CONNECTION_NOT_AUTHENTICATED" } },
    });
  });

  // JSON.stringify of the job's params overflowed the stack (a RangeError, no TypedError).
  test("TaskService.enqueue: params nested past the limit are refused with a typed 400", async () => {
    const params = JSON.parse(`{"age":1,"x":${"[".repeat(20_000)}1${"]".repeat(20_000)}}`) as Params;
    const refused = await tasks().enqueue("messages:cleanup", params).catch((error: unknown) => error);
    expect(isTypedError(refused) && refused.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
  });
});
