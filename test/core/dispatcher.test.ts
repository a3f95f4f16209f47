import { z } from "zod";
import { Connection, CONNECTION_TYPE, ErrorType, HTTP_METHOD, TypedError, secret, type ActionMiddleware } from "herald";
import type { ActionDefinition } from "../../src/core/action";
import { clientGone } from "../../src/core/client-gone";
import { pipeline } from "../support/pipeline";

function action(overrides: Partial<ActionDefinition> & Pick<ActionDefinition, "name">): ActionDefinition {
  return { run: async (params: unknown) => ({ params }), ...overrides } as ActionDefinition;
}

function recorder(label: string, events: string[], extra: Partial<ActionMiddleware> = {}): ActionMiddleware {
  return {
    runBefore: async () => {
      events.push(`${label}:before`);
    },
    runAfter: async (_params, _connection, error) => {
      events.push(`${label}:after${error ? `(${error.message})` : ""}`);
    },
    ...extra,
  };
}

describe("validation", () => {
  const inputs = z.object({ name: z.string().min(3), age: z.coerce.number().int(), password: secret(z.string().min(8)) });

  test("passes parsed, coerced params to run", async () => {
    const { run } = pipeline([action({ name: "user:make", inputs })]);
    const result = await run("user:make", { name: "Ada", age: "36", password: "long enough", extra: 1 });
    expect(result.status).toBe(200);
    expect(result.response).toEqual({ params: { name: "Ada", age: 36, password: "long enough" } });
  });

  test("lists every issue, not only the first, with 422", async () => {
    const { run } = pipeline([action({ name: "user:make", inputs })]);
    const result = await run("user:make", { name: "A", age: "x", password: "short" });
    expect(result.status).toBe(422);
    expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_PARAM_VALIDATION);
    expect(result.error?.key).toBe("name");
    expect(result.error?.value).toBe("A");
    expect(result.error?.issues?.map((issue) => issue.path[0])).toEqual(["name", "age", "password"]);
    expect(result.error?.issues?.[0]).toMatchObject({ code: "too_small", message: expect.any(String) });
  });

  test("a missing field is CONNECTION_ACTION_PARAM_REQUIRED", async () => {
    const { run } = pipeline([action({ name: "user:make", inputs })]);
    const result = await run("user:make", { age: 3, password: "long enough" });
    expect(result.error).toMatchObject({ type: ErrorType.CONNECTION_ACTION_PARAM_REQUIRED, key: "name" });
    expect(result.error?.message).toBe('Missing required param "name"');
    expect(result.status).toBe(422);
  });

  test("never echoes the value of a secret field", async () => {
    const { run } = pipeline([action({ name: "user:make", inputs })]);
    const result = await run("user:make", { password: "hunter2", name: "Ada", age: 1 });
    expect(result.error?.key).toBe("password");
    expect(result.error).not.toHaveProperty("value");
    expect(JSON.stringify(result.error?.issues)).not.toContain("hunter2");
  });

  test("async transforms run, and a TypedError thrown inside one is kept", async () => {
    const lookup = z.object({
      id: z.number().transform(async (id) => {
        if (id === 0) throw new TypedError({ message: "user 0 not found", type: ErrorType.CONNECTION_NOT_FOUND });
        return { id, name: `user ${id}` };
      }),
    });
    const { run } = pipeline([action({ name: "user:find", inputs: lookup })]);
    expect((await run("user:find", { id: 7 })).response).toEqual({ params: { id: { id: 7, name: "user 7" } } });
    const missing = await run("user:find", { id: 0 });
    expect(missing.status).toBe(404);
    expect(missing.error?.message).toBe("user 0 not found");
  });

  test("an unknown action is 404 CONNECTION_ACTION_NOT_FOUND", async () => {
    const { run } = pipeline([]);
    const result = await run("nope:never");
    expect(result).toMatchObject({ status: 404, error: { type: ErrorType.CONNECTION_ACTION_NOT_FOUND, value: "nope:never" } });
  });

  test("without inputs, params arrive as given", async () => {
    const { run } = pipeline([action({ name: "free:form" })]);
    expect((await run("free:form", { anything: [1, 2] })).response).toEqual({ params: { anything: [1, 2] } });
    expect((await run("free:form", undefined)).response).toEqual({ params: {} });
  });
});

describe("middleware chain", () => {
  test("global middleware then the action's own, runAfter in reverse", async () => {
    const events: string[] = [];
    const { run } = pipeline(
      [
        action({
          name: "chain:order",
          middleware: [recorder("own1", events), recorder("own2", events)],
          run: async () => {
            events.push("run");
            return "ok";
          },
        }),
      ],
      { globalMiddleware: [recorder("global", events)] },
    );
    await run("chain:order");
    expect(events).toEqual([
      "global:before",
      "own1:before",
      "own2:before",
      "run",
      "own2:after",
      "own1:after",
      "global:after",
    ]);
  });

  test("a middleware that answers synchronously, without a promise, still updates params and response", async () => {
    const events: string[] = [];
    const synchronous = {
      runBefore: (params: Record<string, unknown>) => {
        events.push("before");
        return { updatedParams: { ...params, added: true } };
      },
      runAfter: () => {
        events.push("after");
        return { updatedResponse: "replaced" };
      },
    } as unknown as ActionMiddleware;
    const nothing = { runBefore: () => undefined, runAfter: () => undefined } as unknown as ActionMiddleware;
    const { run } = pipeline([
      action({
        name: "chain:sync",
        middleware: [synchronous, nothing],
        run: async (params: unknown) => {
          events.push(`run ${JSON.stringify(params)}`);
          return "original";
        },
      }),
    ]);
    const result = await run("chain:sync", { n: 1 });
    expect(result.response).toBe("replaced");
    expect(events).toEqual(["before", 'run {"n":1,"added":true}', "after"]);
  });

  test("a middleware that throws synchronously stops the call like a rejection", async () => {
    const throwing = {
      runBefore: () => {
        throw new TypedError({ message: "refused", type: ErrorType.CONNECTION_FORBIDDEN });
      },
    } as unknown as ActionMiddleware;
    const { run } = pipeline([action({ name: "chain:sync-throw", middleware: [throwing] })]);
    const result = await run("chain:sync-throw");
    expect(result).toMatchObject({ status: 403, error: { message: "refused" } });
  });

  test("validation failure runs no middleware and no run", async () => {
    const events: string[] = [];
    const { run } = pipeline([
      action({ name: "chain:valid", inputs: z.object({ n: z.number() }), middleware: [recorder("m", events)] }),
    ]);
    const result = await run("chain:valid", { n: "x" });
    expect(result.status).toBe(422);
    expect(events).toEqual([]);
  });

  test("runBeforeInputs runs before validation and its throw refuses the call before any transform runs", async () => {
    const events: string[] = [];
    const inputs = z.object({
      id: z.number().transform(async (id) => {
        events.push("lookup");
        return id;
      }),
    });
    const refusing = recorder("gate", events, {
      runBeforeInputs: (connection, rawParams) => {
        events.push(`gate:inputs(${connection.type},${JSON.stringify(rawParams)})`);
        throw new TypedError({ message: "Sign in first", type: ErrorType.CONNECTION_NOT_AUTHENTICATED });
      },
    });
    const { run } = pipeline([action({ name: "chain:gate", inputs, middleware: [recorder("first", events), refusing] })]);
    const result = await run("chain:gate", { id: 1 });
    expect(result).toMatchObject({ status: 401, error: { message: "Sign in first" } });
    expect(events).toEqual(['gate:inputs(cli,{"id":1})']);
  });

  test("runBeforeInputs that passes leaves validation, runBefore and runAfter as they were", async () => {
    const events: string[] = [];
    const admitting = recorder("gate", events, { runBeforeInputs: async () => void events.push("gate:inputs") });
    const { run } = pipeline([
      action({ name: "chain:admitted", inputs: z.object({ n: z.coerce.number() }), middleware: [recorder("first", events), admitting] }),
    ]);
    expect(await run("chain:admitted", { n: "2" })).toMatchObject({ status: 200, response: { params: { n: 2 } } });
    expect(await run("chain:admitted", { n: "x" })).toMatchObject({ status: 422 });
    expect(events).toEqual(["gate:inputs", "first:before", "gate:before", "gate:after", "first:after", "gate:inputs"]);
  });

  test("updatedParams replaces params for later middleware, run and runAfter", async () => {
    const seen: unknown[] = [];
    const { run } = pipeline([
      action({
        name: "chain:params",
        middleware: [
          { runBefore: async (params) => ({ updatedParams: { ...params, added: true } }) },
          {
            runBefore: async (params) => {
              seen.push(["before", params]);
            },
            runAfter: async (params) => {
              seen.push(["after", params]);
            },
          },
        ],
      }),
    ]);
    const result = await run("chain:params", { x: 1 });
    expect(result.response).toEqual({ params: { x: 1, added: true } });
    expect(seen).toEqual([
      ["before", { x: 1, added: true }],
      ["after", { x: 1, added: true }],
    ]);
  });

  test("callState from runBefore reaches the same middleware's runAfter, per call, even on one connection", async () => {
    const seen: unknown[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { run } = pipeline([
      action({
        name: "chain:state",
        run: async (params: { n: number }) => {
          if (params.n === 1) await gate;
          return params;
        },
        middleware: [
          {
            runBefore: async (params: { n: number }) => ({ callState: `outer ${params.n}` }),
            runAfter: async (_p, _c, _e, context) => void seen.push(context?.callState),
          },
          { runAfter: async (_p, _c, _e, context) => void seen.push(context?.callState ?? "inner: none") },
        ],
      }),
    ]);
    // The first call waits in run while the second passes through on the same connection.
    const first = run("chain:state", { n: 1 });
    await run("chain:state", { n: 2 });
    release();
    await first;
    expect(seen).toEqual(["inner: none", "outer 2", "inner: none", "outer 1"]);
  });

  test("updatedResponse replaces the response, and runAfter sees the current one", async () => {
    const { run } = pipeline([
      action({
        name: "chain:response",
        run: async () => ({ value: 1 }),
        middleware: [
          { runAfter: async (_p, _c, _e, context) => ({ updatedResponse: { outer: context?.response } }) },
          { runAfter: async (_p, _c, _e, context) => ({ updatedResponse: { inner: context?.response } }) },
        ],
      }),
    ]);
    expect((await run("chain:response")).response).toEqual({ outer: { inner: { value: 1 } } });
  });

  test("a throw in runBefore skips run; runAfter of entered middleware still runs with the error", async () => {
    const events: string[] = [];
    let ran = false;
    const { run } = pipeline(
      [
        action({
          name: "chain:deny",
          middleware: [
            recorder("auth", events, {
              runBefore: async () => {
                events.push("auth:before");
                throw new TypedError({ message: "who are you", type: ErrorType.CONNECTION_NOT_AUTHENTICATED });
              },
            }),
            recorder("never", events),
          ],
          run: async () => {
            ran = true;
          },
        }),
      ],
      { globalMiddleware: [recorder("global", events)] },
    );
    const result = await run("chain:deny");
    expect(ran).toBe(false);
    expect(result).toMatchObject({ status: 401, error: { type: ErrorType.CONNECTION_NOT_AUTHENTICATED } });
    expect(events).toEqual(["global:before", "auth:before", "auth:after(who are you)", "global:after(who are you)"]);
  });

  test("runAfter always runs when run throws, and the error stands over updatedResponse", async () => {
    const events: string[] = [];
    const { run } = pipeline([
      action({
        name: "chain:fail",
        middleware: [
          {
            runAfter: async (_p, _c, error) => {
              events.push(`rollback:${error?.message}`);
              return { updatedResponse: "ignored" };
            },
          },
        ],
        run: async () => {
          throw new TypedError({ message: "conflict", type: ErrorType.CONNECTION_CONFLICT });
        },
      }),
    ]);
    const result = await run("chain:fail");
    expect(events).toEqual(["rollback:conflict"]);
    expect(result).toMatchObject({ status: 409, error: { message: "conflict" } });
    expect(result).not.toHaveProperty("response");
  });

  test("a throw in runAfter becomes the error, and the outer runAfters still run and see it", async () => {
    const events: string[] = [];
    const { run } = pipeline([
      action({
        name: "chain:afterfail",
        middleware: [
          { runAfter: async (_p, _c, error) => void events.push(`outer saw ${error?.message}`) },
          {
            runAfter: async () => {
              throw new Error("cleanup broke");
            },
          },
        ],
      }),
    ]);
    const result = await run("chain:afterfail");
    expect(result.status).toBe(500);
    expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_RUN);
    expect(events).toEqual(["outer saw cleanup broke"]);
  });
});

describe("errors from run", () => {
  test("a TypedError keeps its type and status", async () => {
    const { run } = pipeline([
      action({
        name: "err:typed",
        run: async () => {
          throw new TypedError({ message: "gone", type: ErrorType.CONNECTION_NOT_FOUND, key: "id", value: 3 });
        },
      }),
    ]);
    expect(await run("err:typed")).toMatchObject({ status: 404, error: { message: "gone", key: "id", value: 3 } });
  });

  test("a foreign error becomes CONNECTION_ACTION_RUN, generic in production, logged with details", async () => {
    const failing = action({
      name: "err:foreign",
      run: async () => {
        throw new Error("database password is hunter2");
      },
    });
    const dev = pipeline([failing]);
    expect((await dev.run("err:foreign")).error?.message).toBe("database password is hunter2");

    const prod = pipeline([failing], { production: true });
    const result = await prod.run("err:foreign");
    expect(result.status).toBe(500);
    expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_RUN);
    expect(result.error?.message).not.toContain("hunter2");
    expect(prod.logs.find((line) => line.action === "err:foreign")?.err?.message).toBe("database password is hunter2");
  });

  test("a thrown non-Error still gives a typed error", async () => {
    const { run } = pipeline([
      action({
        name: "err:string",
        run: async () => {
          throw "just a string";
        },
      }),
    ]);
    expect(await run("err:string")).toMatchObject({ status: 500, error: { type: ErrorType.CONNECTION_ACTION_RUN } });
  });

  test("a synchronous throw in run is caught like a rejection", async () => {
    const { run } = pipeline([
      action({
        name: "err:sync",
        run: (() => {
          throw new TypedError({ message: "nope", type: ErrorType.CONNECTION_FORBIDDEN });
        }) as never,
      }),
    ]);
    expect(await run("err:sync")).toMatchObject({ status: 403 });
  });
});

describe("timeouts", () => {
  test("the signal fires and the caller gets CONNECTION_ACTION_TIMEOUT", async () => {
    let aborted: unknown;
    const { run } = pipeline([
      action({
        name: "slow:listens",
        timeout: 20,
        run: (_params, _connection, signal) =>
          new Promise((_, reject) => {
            signal!.addEventListener("abort", () => {
              aborted = signal!.reason;
              reject(signal!.reason);
            });
          }),
      }),
    ]);
    const result = await run("slow:listens");
    expect(result).toMatchObject({ status: 504, error: { type: ErrorType.CONNECTION_ACTION_TIMEOUT } });
    expect(aborted).toBeInstanceOf(TypedError);
  });

  test("an action that ignores its signal is still answered at the timeout", async () => {
    const events: string[] = [];
    const { run } = pipeline([
      action({
        name: "slow:ignores",
        timeout: 20,
        middleware: [{ runAfter: async (_p, _c, error) => void events.push(`after:${(error as TypedError).type}`) }],
        run: () => new Promise(() => undefined),
      }),
    ]);
    const result = await run("slow:ignores");
    expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
    // runAfter waits for a run that never settles.
    expect(events).toEqual([]);
  });

  test("one deadline covers runBefore: a runBefore that hangs is cut, the signal fires, run never starts", async () => {
    const ran = jest.fn();
    const { dispatcher, connection } = pipeline([
      action({ name: "hang:before", timeout: 20, middleware: [{ runBefore: () => new Promise(() => undefined) }], run: ran }),
    ]);
    const controller = new AbortController();
    const result = await dispatcher.run("hang:before", {}, connection, { controller });
    expect(result).toMatchObject({ status: 504, error: { type: ErrorType.CONNECTION_ACTION_TIMEOUT } });
    expect(controller.signal.reason).toBe(result.error);
    expect(ran).not.toHaveBeenCalled();
  });

  test("one deadline covers runBeforeInputs and input resolution", async () => {
    const hanging = z.object({ id: z.number().transform(() => new Promise<number>(() => undefined)) });
    const { run } = pipeline([
      action({ name: "hang:admission", timeout: 20, middleware: [{ runBeforeInputs: () => new Promise(() => undefined) }] }),
      action({ name: "hang:inputs", timeout: 20, inputs: hanging }),
    ]);
    expect((await run("hang:admission")).error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
    expect((await run("hang:inputs", { id: 1 })).error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
  });

  test("a runBefore that settles past the deadline: no further runBefore nor run, its runAfter sees the timeout", async () => {
    const events: string[] = [];
    let release!: () => void;
    let unwound!: () => void;
    const done = new Promise<void>((resolve) => (unwound = resolve));
    const outer = recorder("outer", events, {
      runAfter: async (_p, _c, error) => {
        events.push(`outer:after(${(error as TypedError).type})`);
        unwound();
      },
    });
    const slow = recorder("slow", events, {
      runBefore: () => new Promise<void>((resolve) => (release = resolve)).then(() => void events.push("slow:before")),
    });
    const { run } = pipeline([
      action({ name: "slow:before", timeout: 20, middleware: [outer, slow, recorder("inner", events)], run: async () => void events.push("run") }),
    ]);
    expect((await run("slow:before")).error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
    expect(events).toEqual(["outer:before"]);
    release();
    await done;
    expect(events).toEqual(["outer:before", "slow:before", "slow:after(Action \"slow:before\" timed out after 20 ms)", "outer:after(CONNECTION_ACTION_TIMEOUT)"]);
  });

  test("runAfter of a timed-out run waits until run has settled, and sees the timeout error, not run's own", async () => {
    const events: string[] = [];
    let finishRun!: () => void;
    let unwound!: () => void;
    const done = new Promise<void>((resolve) => (unwound = resolve));
    const transaction: ActionMiddleware = {
      runBefore: async () => void events.push("begin"),
      runAfter: async (_p, _c, error) => {
        events.push(error ? `rollback(${(error as TypedError).type})` : "commit");
        unwound();
      },
    };
    const { run } = pipeline([
      action({
        name: "slow:writes",
        timeout: 20,
        middleware: [transaction],
        run: async () => {
          await new Promise<void>((resolve) => (finishRun = resolve));
          events.push("last write");
          throw new Error("the write failed once aborted");
        },
      }),
    ]);
    const result = await run("slow:writes");
    expect(result).toMatchObject({ status: 504, error: { type: ErrorType.CONNECTION_ACTION_TIMEOUT } });
    expect(events).toEqual(["begin"]);
    finishRun();
    await done;
    expect(events).toEqual(["begin", "last write", "rollback(CONNECTION_ACTION_TIMEOUT)"]);
  });

  test("a runAfter that hangs is cut by the deadline too", async () => {
    const { run } = pipeline([
      action({ name: "hang:after", timeout: 20, middleware: [{ runAfter: () => new Promise(() => undefined) }] }),
    ]);
    expect(await run("hang:after")).toMatchObject({ status: 504, error: { type: ErrorType.CONNECTION_ACTION_TIMEOUT } });
  });

  test("the global timeout applies when the action sets none; 0 disables it", async () => {
    const never = (name: string, timeout?: number) =>
      action({
        name,
        ...(timeout === undefined ? {} : { timeout }),
        run: (_p, _c, signal) => new Promise((resolve) => setTimeout(() => resolve(signal!.aborted ? "aborted" : "done"), 60)),
      });
    const { run } = pipeline([never("slow:global"), never("slow:unbounded", 0)], { actionTimeout: 10 });
    expect((await run("slow:global")).error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
    expect(await run("slow:unbounded")).toMatchObject({ status: 200, response: "done" });
  });

  test("a transport's own controller reaches the action and is the one aborted at the timeout", async () => {
    let received: AbortSignal | undefined;
    const { dispatcher, connection } = pipeline([
      action({
        name: "slow:owned",
        timeout: 20,
        run: (_params, _connection, signal) => {
          received = signal;
          return new Promise(() => undefined);
        },
      }),
    ]);
    const controller = new AbortController();
    const result = await dispatcher.run("slow:owned", {}, connection, { controller });
    expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
    expect(received).toBe(controller.signal);
    expect(controller.signal.reason).toBeInstanceOf(TypedError);
  });

  test("a rejection after the timeout is not an unhandled rejection", async () => {
    const unhandled = jest.fn();
    process.on("unhandledRejection", unhandled);
    try {
      let rejectLate!: (error: Error) => void;
      const { run } = pipeline([
        action({
          name: "slow:late",
          timeout: 10,
          run: () => new Promise((_, reject) => (rejectLate = reject)),
        }),
      ]);
      expect((await run("slow:late")).error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
      rejectLate(new Error("late"));
      // Node reports unhandled rejections once the microtasks of the turn have run, before the next macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });
});

describe("request log", () => {
  test("one line per call with action, connection type, duration, status and redacted params", async () => {
    const inputs = z.object({ email: z.string(), password: secret(z.string()), nested: z.object({ token: secret(z.string()) }).optional() });
    const { run, logs } = pipeline([action({ name: "user:login", inputs })]);
    await run("user:login", { email: "a@b.c", password: "hunter2hunter2", nested: { token: "t0ps3cret" } });
    const lines = logs.filter((line) => line.action === "user:login");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      connection: "cli",
      status: 200,
      durationMs: expect.any(Number),
      params: { email: "a@b.c", password: "[[secret]]", nested: { token: "[[secret]]" } },
    });
    expect(JSON.stringify(logs)).not.toMatch(/hunter2|t0ps3cret/);
  });

  test("failed calls are logged once too; when validation fails only the keys sent are", async () => {
    const inputs = z.object({ password: secret(z.string().min(20)) });
    const { run, logs } = pipeline([action({ name: "user:secret", inputs })]);
    await run("user:secret", { password: "hunter2" });
    const lines = logs.filter((line) => line.action === "user:secret");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: 422, paramKeys: ["password"] });
    expect(lines[0]!.params).toBeUndefined();
    expect(JSON.stringify(logs)).not.toContain("hunter2");
  });
});

describe("a caller who leaves", () => {
  test("is its own outcome: 499 CONNECTION_CLIENT_GONE, logged at info, not as a failure", async () => {
    const { dispatcher, connection, logs } = pipeline([
      action({
        name: "slow:abandoned",
        timeout: 0,
        run: (_params, _connection, signal) => new Promise((_, reject) => signal!.addEventListener("abort", () => reject(new Error("aborted")))),
      }),
    ]);
    const controller = new AbortController();
    const pending = dispatcher.run("slow:abandoned", {}, connection, { controller });
    controller.abort(clientGone("The client closed the connection before the response"));
    const result = await pending;
    expect(result).toMatchObject({ status: 499, error: { type: ErrorType.CONNECTION_CLIENT_GONE } });
    const [line] = logs.filter((entry) => entry.action === "slow:abandoned");
    expect(line).toMatchObject({ level: 30, msg: "client gone", status: 499, error: { type: "CONNECTION_CLIENT_GONE" } });
    expect(line).not.toHaveProperty("err");
  });

  test("after the deadline answered the call, the outcome stays the timeout", async () => {
    const { dispatcher, connection } = pipeline([action({ name: "slow:late-leave", timeout: 20, run: () => new Promise(() => undefined) })]);
    const controller = new AbortController();
    const result = await dispatcher.run("slow:late-leave", {}, connection, { controller });
    controller.abort(clientGone("gone"));
    expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_TIMEOUT);
    expect(controller.signal.reason).toBe(result.error);
  });
});

describe("request log fields", () => {
  test("the line of a known action and of an unknown one carry the same fields", async () => {
    const { dispatcher, logs } = pipeline([action({ name: "fields:known" })]);
    const connection = new Connection({ type: CONNECTION_TYPE.web, requestId: "fields-1" });
    await dispatcher.run("fields:known", { a: 1 }, connection);
    await dispatcher.run("fields:unknown", { b: 2 }, connection);
    expect(logs.map((line) => Object.keys(line).filter((key) => !["level", "time", "pid", "hostname"].includes(key)))).toEqual([
      ["action", "connection", "connectionId", "durationMs", "status", "params", "requestId", "msg"],
      ["action", "connection", "connectionId", "durationMs", "status", "paramKeys", "requestId", "error", "msg"],
    ]);
    expect(logs[0]).toMatchObject({ action: "fields:known", connection: "web", connectionId: connection.id, status: 200, params: { a: 1 } });
    // An unknown action has no schema to say which values are safe to log.
    expect(logs[1]).toMatchObject({ action: "fields:unknown", connection: "web", status: 404, paramKeys: ["b"] });
  });

  test("logged values are bounded: long arrays, many keys, deep nesting, models and bytes", async () => {
    class User {
      constructor(
        readonly id: number,
        readonly passwordHash: string,
      ) {}
    }
    const inputs = z.object({ list: z.array(z.number()), wide: z.record(z.string(), z.number()), deep: z.unknown(), user: z.instanceof(User), bytes: z.instanceof(Uint8Array) });
    const { run, logs } = pipeline([action({ name: "fields:bounded", inputs })]);
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`k${index}`, index]));
    await run("fields:bounded", {
      list: Array.from({ length: 25 }, (_, index) => index),
      wide,
      deep: { a: { b: { c: { d: { e: "too deep" } } } } },
      user: new User(42, "scrypt$hash"),
      bytes: new Uint8Array(1000),
    });
    const { params } = logs.find((line) => line.action === "fields:bounded")!;
    expect(params.list).toEqual([...Array.from({ length: 20 }, (_, index) => index), "…(+5 items)"]);
    expect(Object.keys(params.wide)).toHaveLength(51);
    expect(params.wide["…"]).toBe("+10 keys");
    // Four levels from the params themselves: params, deep, a, b.
    expect(params.deep).toEqual({ a: { b: { c: "[object]" } } });
    expect(params.user).toBe("[User 42]");
    expect(params.bytes).toBe("[1000 bytes]");
    expect(JSON.stringify(logs)).not.toContain("scrypt$hash");
  });

  test("each connection type's lines name their own type", async () => {
    const { dispatcher, logs } = pipeline([action({ name: "fields:types" })]);
    await dispatcher.run("fields:types", {}, new Connection({ type: CONNECTION_TYPE.web }));
    await dispatcher.run("fields:types", {}, new Connection({ type: CONNECTION_TYPE.websocket }));
    await dispatcher.run("fields:types", {}, new Connection({ type: CONNECTION_TYPE.web }));
    expect(logs.map((line) => line.connection)).toEqual(["web", "websocket", "web"]);
  });
});

describe("request log level", () => {
  test("below info the line of a successful call is not written, the line of a 500 still is", async () => {
    const { dispatcher, connection, logs, logger } = pipeline([
      action({ name: "quiet:ok" }),
      action({
        name: "quiet:broken",
        run: async () => {
          throw new Error("disk full");
        },
      }),
    ]);
    logger.level = "warn";
    await dispatcher.run("quiet:ok", {}, connection);
    await dispatcher.run("quiet:broken", {}, connection);
    expect(logs.map((line) => line.action)).toEqual(["quiet:broken"]);
    expect(logs[0]).toMatchObject({ status: 500, msg: "action failed", err: { message: "disk full" } });

    logger.level = "silent";
    await dispatcher.run("quiet:broken", {}, connection);
    expect(logs).toHaveLength(1);
  });

  test("a level changed after an action's first line applies to its later lines, both ways", async () => {
    const { dispatcher, connection, logs, logger } = pipeline([
      action({
        name: "quiet:sometimes",
        run: async (params: unknown) => {
          if ((params as { fail?: boolean }).fail) throw new Error("disk full");
          return "ok";
        },
      }),
    ]);
    logger.level = "warn";
    await dispatcher.run("quiet:sometimes", { call: 1, fail: true }, connection);
    await dispatcher.run("quiet:sometimes", { call: 2 }, connection);
    logger.level = "info";
    await dispatcher.run("quiet:sometimes", { call: 3 }, connection);
    logger.level = "fatal";
    await dispatcher.run("quiet:sometimes", { call: 4, fail: true }, connection);
    logger.level = "error";
    await dispatcher.run("quiet:sometimes", { call: 5, fail: true }, connection);
    expect(logs.filter((line) => line.action).map((line) => line.params.call)).toEqual([1, 3, 5]);
  });
});

test("a runAfter that throws after the call already failed is logged, and the first error stands", async () => {
  const { run, logs } = pipeline([
    action({
      name: "chain:twice",
      middleware: [
        {
          runAfter: async () => {
            throw new Error("cleanup also broke");
          },
        },
      ],
      run: async () => {
        throw new TypedError({ message: "first", type: ErrorType.CONNECTION_CONFLICT });
      },
    }),
  ]);
  const result = await run("chain:twice");
  expect(result.error?.message).toBe("first");
  expect(logs.some((line) => line.err?.message === "cleanup also broke")).toBe(true);
});

describe("a streaming action's chain", () => {
  const ticks = (events: string[]) =>
    action({
      name: "stream:ticks",
      async *run() {
        events.push("yield");
        yield { tick: 1 };
        events.push("body done");
      },
    } as Partial<ActionDefinition> & Pick<ActionDefinition, "name">);

  async function read(stream: unknown): Promise<string[]> {
    const texts: string[] = [];
    for await (const text of stream as AsyncIterable<string>) texts.push(text);
    return texts;
  }

  test("runAfter waits for the stream's end; its updatedResponse cannot replace values already sent", async () => {
    const events: string[] = [];
    const { run, logs } = pipeline([
      { ...ticks(events), middleware: [{ ...recorder("m", events), runAfter: async () => (events.push("m:after"), { updatedResponse: "replaced" }) }] },
    ]);
    const result = await run("stream:ticks");
    expect(events).toEqual(["m:before"]);
    expect(await read(result.response)).toEqual(['{"tick":1}']);
    expect(events).toEqual(["m:before", "yield", "body done", "m:after"]);
    expect(logs.find((line) => line.msg?.startsWith("runAfter's updatedResponse is ignored"))).toMatchObject({ level: 20, action: "stream:ticks" });
    expect(logs.filter((line) => line.status)).toEqual([expect.objectContaining({ status: 200, msg: "action" })]);
  });

  test("a runAfter that throws after a stream ran to its end makes that error the stream's end", async () => {
    const events: string[] = [];
    const failure = new TypedError({ message: "commit failed", type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
    const { run, logs } = pipeline([
      { ...ticks(events), middleware: [{ runAfter: async () => Promise.reject(failure) }] },
    ]);
    const result = await run("stream:ticks");
    await expect(read(result.response)).rejects.toBe(failure);
    expect(logs.filter((line) => line.status)).toEqual([expect.objectContaining({ status: 503, msg: "action failed" })]);
  });
});

describe("a streaming action's deadline", () => {
  async function* oneTick() {
    yield { tick: 1 };
  }

  test("covers the runAfters after the stream: one that hangs is cut, the reader gets the timeout, the line says 504", async () => {
    const { run, logs } = pipeline([
      action({
        name: "stream:hang-after",
        timeout: 50,
        web: { route: "/hang-after", method: HTTP_METHOD.GET, streaming: true },
        run: async () => oneTick(),
        middleware: [{ runAfter: () => new Promise(() => undefined) }],
      }),
    ]);
    const result = await run("stream:hang-after");
    const texts: string[] = [];
    await expect(
      (async () => {
        for await (const text of result.response as AsyncIterable<string>) texts.push(text);
      })(),
    ).rejects.toMatchObject({ type: ErrorType.CONNECTION_ACTION_TIMEOUT });
    expect(texts).toEqual(['{"tick":1}']);
    expect(logs.filter((line) => line.status)).toEqual([expect.objectContaining({ status: 504, msg: "action failed" })]);
  });
});
