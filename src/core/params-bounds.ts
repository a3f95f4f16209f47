import { ErrorType, TypedError } from "./errors";

/**
 * How deep params may nest (objects and arrays). Deeper input is refused before anything walks it
 * recursively (copies, validation, logging, the JSON of an echo), where it would overflow the
 * stack; 100 is also the usual default of JSON parsers that limit nesting.
 */
export const MAX_PARAMS_DEPTH = 100;

/** What one call's params may hold: every walk after this one (zod, logs, copies) is then bounded too. */
export interface ParamsBounds {
  /** The most keys of one object. */
  maxKeys: number;
  /** The most values of all params together: the keys of every object and the items of every array, at any depth. */
  maxValues: number;
}

export const DEFAULT_PARAMS_BOUNDS: Readonly<ParamsBounds> = Object.freeze({ maxKeys: 1_000, maxValues: 10_000 });

/** Keys that would reach an object's prototype if a parser or a later copy assigned them. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Large params already walked by `boundedParamsCopy`, which the dispatcher need not walk again. */
const walked = new WeakSet<object>();

/**
 * Params of at most this many values are walked again rather than remembered: walking a few keys
 * costs less than a WeakSet entry, which also costs the garbage collector (docs/performance.md).
 * Below every default bound, so walking them again under the defaults refuses nothing.
 */
const REMEMBERED_ABOVE_VALUES = 64;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function tooDeep(): TypedError {
  return new TypedError({
    message: `Params may nest at most ${MAX_PARAMS_DEPTH} levels deep`,
    type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
    key: "params",
  });
}

/** A string that is not well-formed Unicode: a lone surrogate, as a `\ud800` escape in JSON brings. */
export function notWellFormed(): TypedError {
  return new TypedError({
    message: "Params may hold only well-formed Unicode text: a lone surrogate (such as \\ud800) is refused",
    type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
    key: "params",
  });
}

export function tooMany(what: string, most: number): TypedError {
  return new TypedError({
    message: `Params may hold at most ${most} ${what}`,
    type: ErrorType.CONNECTION_PAYLOAD_TOO_LARGE,
    key: "params",
  });
}

/** The values a walk has met so far, against the bound of all of them together. */
class ValueCount {
  seen = 0;
  constructor(private readonly most: number) {}

  add(count: number): void {
    this.seen += count;
    if (this.seen > this.most) throw tooMany("values (object keys and array items together)", this.most);
  }
}

/**
 * The one walk over params: depth, keys per object and values in all are checked at each
 * object or array before its children are visited, so hostile input costs at most one bounded
 * pass; every string and key must be well-formed Unicode, since a lone surrogate cannot be stored
 * or sent on as UTF-8 without becoming U+FFFD. With `copy`, the answer is a copy as ordinary
 * objects and arrays without the prototype keys; other values (strings, numbers, uploaded
 * `File`s) are kept as they are.
 */
function walk(value: unknown, depth: number, bounds: ParamsBounds, values: ValueCount, copy: boolean): unknown {
  if (typeof value === "string") {
    if (!value.isWellFormed()) throw notWellFormed();
    return value;
  }
  const isArray = Array.isArray(value);
  if (!isArray && !(copy ? isPlainRecord(value) : value !== null && typeof value === "object")) return value;
  if (depth >= MAX_PARAMS_DEPTH) throw tooDeep();
  if (isArray) {
    values.add(value.length);
    if (!copy) {
      for (const item of value) walk(item, depth + 1, bounds, values, false);
      return value;
    }
    return value.map((item) => walk(item, depth + 1, bounds, values, true));
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > bounds.maxKeys) throw tooMany("keys in one object", bounds.maxKeys);
  values.add(keys.length);
  for (const key of keys) if (!key.isWellFormed()) throw notWellFormed();
  if (!copy) {
    for (const key of keys) walk(record[key], depth + 1, bounds, values, false);
    return value;
  }
  const result: Record<string, unknown> = {};
  for (const key of keys) {
    if (!PROTOTYPE_KEYS.has(key)) result[key] = walk(record[key], depth + 1, bounds, values, true);
  }
  return result;
}

/**
 * Throws when params nest deeper than MAX_PARAMS_DEPTH or hold a string or key that is not
 * well-formed Unicode (400 CONNECTION_ACTION_PARAM_FORMATTING), or hold more keys or values than
 * `bounds` allow (413 CONNECTION_PAYLOAD_TOO_LARGE). Large params
 * made by `boundedParamsCopy` were checked as they were copied and are not walked again.
 */
export function assertParamsBounds(value: unknown, bounds: ParamsBounds = DEFAULT_PARAMS_BOUNDS): void {
  if (value !== null && typeof value === "object" ? walked.has(value) : typeof value !== "string") return;
  walk(value, 0, bounds, new ValueCount(bounds.maxValues), false);
}

/**
 * A bounded copy of params as a transport parsed them (see `assertParamsBounds`), as ordinary
 * objects and arrays without `__proto__`, `constructor` or `prototype` keys at any depth.
 */
export function boundedParamsCopy(value: Record<string, unknown>, bounds: ParamsBounds = DEFAULT_PARAMS_BOUNDS): Record<string, unknown> {
  const values = new ValueCount(bounds.maxValues);
  const result = walk(value, 0, bounds, values, true) as Record<string, unknown>;
  if (values.seen > REMEMBERED_ABOVE_VALUES) walked.add(result);
  return result;
}
