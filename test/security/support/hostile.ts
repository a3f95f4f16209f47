import fc from "fast-check";
import { ErrorStatusCodes, ErrorType } from "herald";

/** Strings that have broken parsers, loggers and templates before. */
const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "\uD800",
  "a\uDFFFb",
  "\uFEFF",
  "\u202Eevil",
  "𝕏🧨👩‍👩‍👧",
  "e\u0301",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "${process.exit()}",
  "{{constructor.constructor('return process')()}}",
  "../../../etc/passwd",
  "%00%ff",
  "NaN",
  "-0",
  "1e309",
  "9007199254740993",
  "true",
  "null",
];

/** Names the sample-style actions read, and names that reach an object's prototype. */
const KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "polluted", "page", "limit", "name", "email", "password", "body", "userId", "tags", "pinned", "meta", "address", "city", "zip", "settings", "theme", "id"];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((length) => "x".repeat(length)) },
);

const key: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: nastyString });

/** Any JSON value, with nasty strings, odd numbers and prototype keys at every depth. */
export const nastyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, null, true, false),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** JSON text that assigns to a prototype if any layer copies it carelessly. */
const POLLUTERS = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
];

/** Params nested `depth` levels deep, as text (building the object would overflow the test's own stack). */
function deepText(depth: number, open: string, close: string): string {
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
}

/** The plausible params of each sample-style action: what a real client would send. */
const plausible: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  "user:signup": fc.record({ name: fc.string({ minLength: 3, maxLength: 100 }), email: fc.emailAddress(), password: fc.string({ minLength: 8, maxLength: 64 }) }),
  "messages:list": fc.record({ page: fc.integer({ min: 1, max: 1000 }), limit: fc.integer({ min: 1, max: 50 }) }, { requiredKeys: [] }),
  "message:post": fc.record(
    {
      body: fc.string({ minLength: 1, maxLength: 200 }),
      userId: fc.integer({ min: 1 }),
      tags: fc.array(fc.string({ maxLength: 50 }), { maxLength: 5 }),
      pinned: fc.constantFrom(true, false, "true", "false"),
      meta: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
    },
    { requiredKeys: ["body", "userId"] },
  ),
  "profile:update": fc.record(
    {
      id: fc.integer({ min: 1 }),
      address: fc.record({ city: fc.string({ maxLength: 100 }), zip: fc.stringMatching(/^\d{5}$/) }, { requiredKeys: [] }),
      settings: fc.record({ theme: fc.constantFrom("light", "dark") }, { requiredKeys: [] }),
    },
    { requiredKeys: ["id"] },
  ),
};

export const ACTIONS = Object.keys(plausible);

/** One way of spoiling a params object, applied to its JSON text. */
const corruption: fc.Arbitrary<(params: Record<string, unknown>) => string> = fc.oneof(
  fc.constant((params: Record<string, unknown>) => JSON.stringify(params)),
  fc.tuple(key, nastyValue).map(([name, value]) => (params: Record<string, unknown>) => JSON.stringify({ ...params, [name]: value })),
  key.map((name) => (params: Record<string, unknown>) => {
    const copy = { ...params };
    delete copy[name];
    return JSON.stringify(copy);
  }),
  fc.tuple(key, fc.constantFrom(...POLLUTERS)).map(([name, polluter]) => (params: Record<string, unknown>) => {
    const text = JSON.stringify(params);
    return `${text.slice(0, -1)}${text.length > 2 ? "," : ""}${JSON.stringify(name)}:${polluter}}`;
  }),
  fc.constantFrom(...POLLUTERS).map((polluter) => () => polluter),
  fc.tuple(key, fc.integer({ min: 100, max: 20_000 }), fc.boolean()).map(([name, depth, arrays]) => (params: Record<string, unknown>) => {
    const text = JSON.stringify(params);
    const deep = arrays ? deepText(depth, "[", "]") : deepText(depth, '{"a":', "}");
    return `${text.slice(0, -1)}${text.length > 2 ? "," : ""}${JSON.stringify(name)}:${deep}}`;
  }),
  nastyValue.map((value) => () => JSON.stringify(value) ?? "null"),
);

export interface HostileCall {
  action: string;
  /** The params as JSON text (not always an object, not always sane). */
  paramsText: string;
}

/** Plausible params of a random action, then (most of the time) spoiled. */
export const hostileCall: fc.Arbitrary<HostileCall> = fc
  .constantFrom(...ACTIONS)
  .chain((action) => fc.tuple(fc.constant(action), plausible[action]!, corruption))
  .map(([action, params, spoil]) => ({ action, paramsText: spoil(params) }));

/** Text that is barely or not at all JSON, and bytes that are not UTF-8. */
export const corruptText: fc.Arbitrary<string | Uint8Array<ArrayBuffer>> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.constantFrom("{", "}", "[", "{\"a\":", "{\"a\":1,}", "nul", "\"unterminated", "{'single':1}", "{\"a\":1}garbage", "\u0000"),
  fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1))),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => new Uint8Array(bytes) as Uint8Array<ArrayBuffer>),
);

const ERROR_TYPES = new Set<string>(Object.values(ErrorType));

/**
 * What every answer to hostile input must be: a success, or a typed client error with the one
 * error body; never a server error.
 */
export function assertWellFormedAnswer(status: number, body: unknown): void {
  if (status >= 500) throw new Error(`answered ${status}: ${JSON.stringify(body).slice(0, 500)}`);
  if (status === 200) {
    if (typeof body !== "object" || body === null) throw new Error(`a success that is not a JSON object: ${String(body).slice(0, 200)}`);
    return;
  }
  assertErrorBody(body, status);
}

/** The one error body: `{ error: { message, type, timestamp, … } }` of a known type, with that type's status. */
export function assertErrorBody(body: unknown, status?: number): void {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error.message !== "string" || typeof error.timestamp !== "string" || !ERROR_TYPES.has(error.type as string)) {
    throw new Error(`not a typed error body: ${JSON.stringify(body)?.slice(0, 500)}`);
  }
  const expected = ErrorStatusCodes[error.type as ErrorType];
  if (expected >= 500) throw new Error(`a server error for hostile input: ${JSON.stringify(error).slice(0, 500)}`);
  if (status !== undefined && status !== expected) throw new Error(`status ${status} for an error of type ${String(error.type)} (${expected})`);
}

/** The own properties of the prototypes a pollution would reach, to compare before and after. */
export function prototypeSnapshot(): string[] {
  return [Object.prototype, Array.prototype, Function.prototype].flatMap((prototype) => Object.getOwnPropertyNames(prototype)).sort();
}

/** A body or message as JSON when it is JSON, else as the text it is. */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
