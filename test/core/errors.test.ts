import { ErrorStatusCodes, ErrorType, TypedError, errorBody, toTypedError } from "herald";
import { retryAfterOf } from "../../src/core/errors";

test("every error type has a status, as documented", () => {
  const expected: Record<string, number> = {
    SERVER_INITIALIZATION: 500, SERVER_START: 500, SERVER_STOP: 500, CONFIG_ERROR: 500,
    CONNECTION_SERVER_ERROR: 500, CONNECTION_ACTION_RUN: 500, CONNECTION_TASK_DEFINITION: 500,
    CONNECTION_SESSION_NOT_FOUND: 401, CONNECTION_NOT_AUTHENTICATED: 401,
    CONNECTION_FORBIDDEN: 403, CONNECTION_CHANNEL_AUTHORIZATION: 403,
    CONNECTION_ACTION_NOT_FOUND: 404, CONNECTION_NOT_FOUND: 404, CONNECTION_METHOD_NOT_ALLOWED: 405,
    CONNECTION_ACTION_TIMEOUT: 504, CONNECTION_CLIENT_GONE: 499, CONNECTION_INPUT_REQUIRED: 422, CONNECTION_CONFLICT: 409, CONNECTION_PAYLOAD_TOO_LARGE: 413,
    CONNECTION_UNSUPPORTED_MEDIA_TYPE: 415,
    CONNECTION_ACTION_PARAM_FORMATTING: 400, CONNECTION_CHANNEL_VALIDATION: 400,
    CONNECTION_ACTION_PARAM_REQUIRED: 422, CONNECTION_ACTION_PARAM_VALIDATION: 422,
    CONNECTION_ACTION_OUTPUT_VALIDATION: 500,
    CONNECTION_RATE_LIMITED: 429, CONNECTION_SERVICE_UNAVAILABLE: 503, CONNECTION_SERVICE_BUSY: 503,
  };
  expect(ErrorStatusCodes).toEqual(expected);
  expect(Object.keys(ErrorType).sort()).toEqual(Object.keys(expected).sort());
});

test("the error body carries message, type, key, value, issues and an ISO timestamp", () => {
  const error = new TypedError({
    message: "bad",
    type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
    key: "name",
    value: "A",
    issues: [{ path: ["name"], message: "too short", code: "too_small" }],
  });
  const { error: body } = errorBody(error, true);
  expect(body).toEqual({
    message: "bad",
    type: "CONNECTION_ACTION_PARAM_VALIDATION",
    key: "name",
    value: "A",
    issues: [{ path: ["name"], message: "too short", code: "too_small" }],
    timestamp: new Date(error.timestamp).toISOString(),
  });
});

test("stack only outside production; absent members stay absent", () => {
  const error = new TypedError({ message: "m", type: ErrorType.CONNECTION_CONFLICT });
  expect(errorBody(error, false).error.stack).toContain("TypedError");
  const production = errorBody(error, true).error;
  expect(Object.keys(production).sort()).toEqual(["message", "timestamp", "type"]);
  expect(error.status).toBe(409);
});

test("a foreign error becomes CONNECTION_ACTION_RUN, its detail hidden in production", () => {
  const cause = new Error("secret detail");
  expect(toTypedError(cause, false)).toMatchObject({ type: ErrorType.CONNECTION_ACTION_RUN, message: "secret detail" });
  const hidden = toTypedError(cause, true);
  expect(hidden.message).not.toContain("secret detail");
  expect(hidden.cause).toBe(cause);
  const typed = new TypedError({ message: "x", type: ErrorType.CONNECTION_FORBIDDEN });
  expect(toTypedError(typed, true)).toBe(typed);
});

describe("an error's value in the body every transport sends", () => {
  const withValue = (value: unknown) => errorBody(new TypedError({ message: "refused", type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION, key: "n", value }), true);

  test("a BigInt is its decimal text, so the body still encodes", () => {
    const body = withValue(12345678901234567890n);
    expect(body.error.value).toBe("12345678901234567890");
    expect(JSON.parse(JSON.stringify(body)).error.value).toBe("12345678901234567890");
  });

  test("a value that holds a cycle is left out, and the error still reaches the caller", () => {
    const looped: Record<string, unknown> = { name: "loop" };
    looped.self = looped;
    const body = withValue(looped);
    expect(body.error).not.toHaveProperty("value");
    expect(JSON.parse(JSON.stringify(body)).error).toMatchObject({ message: "refused", key: "n" });
  });

  test("a Date and bytes are encoded as in a response; plain values are kept as they are", () => {
    expect(withValue({ at: new Date("2030-01-02T03:04:05Z"), bytes: Buffer.from("hi") }).error.value).toEqual({
      at: "2030-01-02T03:04:05.000Z",
      bytes: "aGk=",
    });
    expect(withValue("text").error.value).toBe("text");
    expect(withValue(0).error.value).toBe(0);
  });
});

describe("retryAfterOf: when a refusal asks to be retried", () => {
  const refusal = (type: ErrorType, value?: unknown) => new TypedError({ message: "no", type, value });

  it("reads a 429's or a 503's value.retryAfter, rounded up to whole seconds", () => {
    expect(retryAfterOf(refusal(ErrorType.CONNECTION_RATE_LIMITED, { retryAfter: 1.2 }))).toBe(2);
    expect(retryAfterOf(refusal(ErrorType.CONNECTION_SERVICE_BUSY, { retryAfter: 3 }))).toBe(3);
  });

  it("says nothing for another status, a missing, non-numeric or non-positive value", () => {
    expect(retryAfterOf(refusal(ErrorType.CONNECTION_ACTION_NOT_FOUND, { retryAfter: 5 }))).toBeUndefined();
    expect(retryAfterOf(refusal(ErrorType.CONNECTION_RATE_LIMITED))).toBeUndefined();
    expect(retryAfterOf(refusal(ErrorType.CONNECTION_RATE_LIMITED, { retryAfter: "5" }))).toBeUndefined();
    expect(retryAfterOf(refusal(ErrorType.CONNECTION_RATE_LIMITED, { retryAfter: 0 }))).toBeUndefined();
  });
});
