import { ErrorType, TypedError } from "./errors";

/**
 * The one JSON encoding of an action's response, shared by every transport, so that a value is
 * sent alike everywhere and one that JSON cannot carry fails alike everywhere
 * (docs/actions.md#what-run-may-return).
 */

/** Why a value cannot be encoded; the encoder adds where it is. */
class Unencodable extends Error {}

const isPlainPrototype = (prototype: unknown) => prototype === Object.prototype || prototype === null;

/** Node's global `Response` is a getter that runs on every read: read it once, when first needed. */
let WebResponse: typeof Response | undefined;

/** What an object that JSON would mangle becomes, or the reason it is refused; other values as they are. */
function convert(value: object): unknown {
  if (typeof (value as { then?: unknown }).then === "function") {
    throw new Unencodable("is a Promise: await it before returning");
  }
  if (typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    throw new Unencodable("is an async iterable, which only a streaming action (async *run, or web.streaming) may return, as its whole response");
  }
  if (isPlainPrototype(Object.getPrototypeOf(value))) return value;
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString("base64");
  if (value instanceof Map) {
    const entries: [string, unknown][] = [];
    for (const [key, item] of value) {
      if (typeof key !== "string" && typeof key !== "number") throw new Unencodable("is a Map with a key that is not a string or a number");
      entries.push([String(key), item]);
    }
    return Object.fromEntries(entries);
  }
  if (typeof (value as Iterable<unknown>)[Symbol.iterator] === "function") return Array.from(value as Iterable<unknown>);
  WebResponse ??= Response;
  if (value instanceof WebResponse) throw new Unencodable("is an HTTP Response, which only the HTTP transport can send");
  return value;
}

function replacer(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === "object") {
    if (value === null || Array.isArray(value)) return value;
    // Buffer's own toJSON has run already ({ type: "Buffer", data: [...] }): encode the original bytes instead.
    if ((value as { type?: unknown }).type === "Buffer") {
      const original = (this as Record<string, unknown>)[key];
      if (original instanceof Uint8Array) return convert(original);
    }
    return convert(value);
  }
  if (typeof value === "bigint") throw new Unencodable("is a BigInt: convert it with String() or Number()");
  return value;
}

/** A plain object or array whose values are all strings, numbers, booleans or null: native JSON encodes it as is. */
function isFlat(value: object): boolean {
  if (!Array.isArray(value)) {
    if (!isPlainPrototype(Object.getPrototypeOf(value))) return false;
    if (typeof (value as { then?: unknown }).then === "function" || Symbol.asyncIterator in value) return false;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== null && (typeof item === "object" || typeof item === "bigint")) return false;
  }
  return true;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

interface Ancestor {
  /** The value as the action gave it, and as it is encoded (a Map's object …): a cycle may run through either. */
  original: unknown;
  encoded: object;
  path: string;
}

/**
 * Walks the value as the encoder does, to say where it failed: the first cycle or refused value.
 * Only runs after a failure, so it may be slow; bounded in depth so a deep value cannot overflow it.
 */
function locate(holder: Record<string, unknown>, key: string, path: string, ancestors: Ancestor[]): string | undefined {
  const original = holder[key];
  let value = original;
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  try {
    value = replacer.call(holder, key, value);
  } catch (error) {
    return error instanceof Unencodable ? `${path} ${error.message}` : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const repeated = ancestors.find((ancestor) => ancestor.original === original || ancestor.encoded === value);
  if (repeated) return `${path} is ${repeated.path} again, a cycle`;
  if (ancestors.length > 200) return undefined;
  ancestors.push({ original, encoded: value, path });
  const record = value as Record<string, unknown>;
  for (const child of Object.keys(record)) {
    const found = locate(record, child, childPath(path, Array.isArray(value) ? Number(child) : child), ancestors);
    if (found) return found;
  }
  ancestors.pop();
  return undefined;
}

function describeFailure(value: unknown, thrown: unknown): string {
  let where: string | undefined;
  try {
    where = locate({ "": value }, "", "response", []);
  } catch {
    // A toJSON that throws again: its own message below says enough.
  }
  if (where) return where;
  if (thrown instanceof RangeError) return "it is nested too deeply";
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/**
 * The response as JSON text: `undefined` (at the top or in an array) becomes null, a property
 * holding `undefined` or a function is left out, `toJSON` is honoured (a Date is its ISO string),
 * bytes (Buffer, any typed array, ArrayBuffer) are base64, a Map is an object and a Set (or any
 * other iterable) an array. A BigInt, a cycle, a Promise, an async iterable or a `Response`
 * throws one CONNECTION_SERVER_ERROR naming the action and the path of the value.
 */
export function encodeResponse(actionName: string, value: unknown, space?: number): string {
  if (value === undefined || value === null) return "null";
  try {
    if (typeof value !== "object" && typeof value !== "bigint") return JSON.stringify(value) ?? "null";
    if (typeof value === "object" && !space && isFlat(value)) return JSON.stringify(value);
    return JSON.stringify(value, replacer, space) ?? "null";
  } catch (thrown) {
    const error = new TypedError({
      message: `The response of "${actionName}" cannot be encoded as JSON: ${describeFailure(value, thrown)}`,
      type: ErrorType.CONNECTION_SERVER_ERROR,
      cause: thrown,
    });
    unencodable.add(error);
    throw error;
  }
}

/** The errors encodeResponse threw, told apart from other server errors without a type of their own. */
const unencodable = new WeakSet<TypedError>();

/**
 * Whether `error` is a response JSON cannot carry: the call ran to its end, so running it again
 * would make its effects again only to fail the same way.
 */
export function isUnencodableResponse(error: TypedError): boolean {
  return unencodable.has(error);
}

/** The response as the JSON value every transport sends: what `JSON.parse` of its encoding gives. */
export function toJsonValue(actionName: string, value: unknown): unknown {
  return JSON.parse(encodeResponse(actionName, value));
}
