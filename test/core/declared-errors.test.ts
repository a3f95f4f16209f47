import { z } from "zod";
import { ErrorType, TypedError, type ActionMiddleware } from "herald";
import type { ActionDefinition } from "../../src/core/action";
import { declaredErrors } from "../../src/core/declared-errors";
import { pipeline } from "../support/pipeline";

const BREACH = "contract breach: action ended with an error it does not declare";

const requireToken: ActionMiddleware = {
  errors: { CONNECTION_NOT_AUTHENTICATED: true },
  runBefore: async (params: { token?: string }) => {
    if (params.token !== "ok") throw new TypedError({ message: "No token", type: ErrorType.CONNECTION_NOT_AUTHENTICATED });
  },
};

/** Ends with the error type it is asked for. */
function failing(name: string, extra: Partial<ActionDefinition> = {}): ActionDefinition {
  return {
    name,
    inputs: z.object({ type: z.enum(ErrorType), token: z.string().optional() }),
    run: async (params: { type: ErrorType }) => {
      throw new TypedError({ message: "failed", type: params.type });
    },
    ...extra,
  } as ActionDefinition;
}

const declaring = failing("connection:view", { errors: { CONNECTION_NOT_FOUND: z.object({ id: z.number() }) }, middleware: [requireToken] });

describe("an action's declared error set", () => {
  test("is its own, its middleware's (global included) and Herald's for its shape", () => {
    const global: ActionMiddleware = { errors: { CONNECTION_FORBIDDEN: true } };
    const declared = declaredErrors(declaring, { middleware: [global, requireToken], timeoutApplies: true });
    expect([...declared.keys()]).toEqual(
      expect.arrayContaining([
        ErrorType.CONNECTION_NOT_FOUND,
        ErrorType.CONNECTION_NOT_AUTHENTICATED,
        ErrorType.CONNECTION_FORBIDDEN,
        ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
        ErrorType.CONNECTION_ACTION_TIMEOUT,
        ErrorType.CONNECTION_ACTION_RUN,
      ]),
    );
    expect(declared.get(ErrorType.CONNECTION_NOT_FOUND)).toMatchObject({ status: 404, values: [expect.any(z.ZodType)] });
    expect(declared.get(ErrorType.CONNECTION_NOT_AUTHENTICATED)).toEqual({ type: ErrorType.CONNECTION_NOT_AUTHENTICATED, status: 401 });
  });

  test("has validation only with inputs and the timeout only under a deadline", () => {
    const declared = declaredErrors({ name: "ping", run: async () => null }, { middleware: [], timeoutApplies: false });
    expect(declared.has(ErrorType.CONNECTION_ACTION_PARAM_VALIDATION)).toBe(false);
    expect(declared.has(ErrorType.CONNECTION_ACTION_TIMEOUT)).toBe(false);
    expect(declared.has(ErrorType.CONNECTION_ACTION_RUN)).toBe(true);
  });

  test("a type one source declares without a schema may carry any value", () => {
    const declared = declaredErrors(failing("x", { errors: { CONNECTION_RATE_LIMITED: true } }), { middleware: [], timeoutApplies: true });
    expect(declared.get(ErrorType.CONNECTION_RATE_LIMITED)?.values).toBeUndefined();
  });
});

describe("outside production, an error the action does not declare is a contract breach", () => {
  const breaches = (logs: Record<string, any>[]) => logs.filter((line) => line.msg === BREACH);

  test("is logged as a warning naming the action and the type; the caller gets the error unchanged", async () => {
    const { run, logs } = pipeline([declaring], { checkOutputs: true });
    const result = await run("connection:view", { type: ErrorType.CONNECTION_CONFLICT, token: "ok" });
    expect(result.error).toMatchObject({ type: ErrorType.CONNECTION_CONFLICT, message: "failed" });
    expect(result.status).toBe(409);
    expect(breaches(logs)).toEqual([expect.objectContaining({ level: 40, action: "connection:view", errorType: ErrorType.CONNECTION_CONFLICT })]);
  });

  test("is not logged for a declared type: its own, its middleware's or Herald's", async () => {
    const { run, logs } = pipeline([declaring], { checkOutputs: true });
    await run("connection:view", { type: ErrorType.CONNECTION_NOT_FOUND, token: "ok" });
    await run("connection:view", { type: ErrorType.CONNECTION_CONFLICT });
    await run("connection:view", { type: "nonsense" });
    expect(breaches(logs)).toEqual([]);
  });

  test("is not looked for in production, nor for an action that declares no errors", async () => {
    const production = pipeline([declaring], { production: true, checkOutputs: false });
    await production.run("connection:view", { type: ErrorType.CONNECTION_CONFLICT, token: "ok" });
    expect(breaches(production.logs)).toEqual([]);
    const silent = pipeline([failing("connection:plain")], { checkOutputs: true });
    await silent.run("connection:plain", { type: ErrorType.CONNECTION_CONFLICT });
    expect(breaches(silent.logs)).toEqual([]);
  });
});
