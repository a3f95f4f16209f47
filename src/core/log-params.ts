import type { z } from "zod";
import { redactSecrets } from "./secret";

/** What the request log says of a call's params: their values, their keys only, or nothing. */
export enum LogParams {
  values = "values",
  keys = "keys",
  none = "none",
}

/** Bounds of a logged value: a request log line stays small whatever a caller sends. */
export const LOGGED_STRING_LENGTH = 256;
export const LOGGED_ITEMS = 20;
export const LOGGED_KEYS = 50;
export const LOGGED_DEPTH = 4;
const LOGGED_KEY_LENGTH = 64;

export interface LoggedParams {
  params?: unknown;
  paramKeys?: string[];
}

/**
 * The params of a request log line. Values are the validated ones (undeclared keys already
 * dropped by the schema), secrets redacted, then bounded; a call whose params never validated
 * logs only the keys it sent, since its values are the caller's and may hold anything.
 */
export function loggedParams(mode: LogParams, schema: z.ZodType | undefined, params: unknown, validated: boolean): LoggedParams {
  if (mode === LogParams.none) return {};
  if (mode === LogParams.keys || !validated) return { paramKeys: boundedKeys(params) };
  const redacted = redactSecrets(schema, params);
  // Most params are small: checking costs less than copying, and the line is the same.
  return { params: withinBounds(redacted, 0) ? redacted : bounded(redacted, 0) };
}

/** Whether `bounded` would give back `value` unchanged. */
function withinBounds(value: unknown, depth: number): boolean {
  if (typeof value === "string") return value.length <= LOGGED_STRING_LENGTH;
  if (typeof value !== "object" || value === null) return typeof value !== "bigint";
  if (depth >= LOGGED_DEPTH) return false;
  if (Array.isArray(value)) return value.length <= LOGGED_ITEMS && value.every((item) => withinBounds(item, depth + 1));
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype !== Object.prototype && prototype !== null) return false;
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (++count > LOGGED_KEYS || key.length > LOGGED_KEY_LENGTH) return false;
    if (!withinBounds((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function boundedKeys(params: unknown): string[] {
  if (!isRecord(params)) return [];
  const keys: string[] = [];
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    if (keys.length === LOGGED_KEYS) {
      keys.push(`…(+${Object.keys(params).length - LOGGED_KEYS} keys)`);
      break;
    }
    keys.push(cut(key, LOGGED_KEY_LENGTH));
  }
  return keys;
}

function bounded(value: unknown, depth: number): unknown {
  if (typeof value === "string") return cut(value, LOGGED_STRING_LENGTH);
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Date) return value;
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) {
    if (depth >= LOGGED_DEPTH) return `[array of ${value.length}]`;
    const items = value.slice(0, LOGGED_ITEMS).map((item) => bounded(item, depth + 1));
    if (value.length > LOGGED_ITEMS) items.push(`…(+${value.length - LOGGED_ITEMS} items)`);
    return items;
  }
  const prototype = Object.getPrototypeOf(value) as object | null;
  // A model a schema resolved (zIdOrModel) holds columns its schema never declared: name it, never dump it.
  if (prototype !== Object.prototype && prototype !== null) return modelLabel(value);
  if (depth >= LOGGED_DEPTH) return "[object]";
  const copy: Record<string, unknown> = {};
  let count = 0;
  for (const [key, item] of Object.entries(value)) {
    if (count++ === LOGGED_KEYS) {
      copy["…"] = `+${Object.keys(value).length - LOGGED_KEYS} keys`;
      break;
    }
    // Defined, not assigned: a "__proto__" key stays a plain field.
    Object.defineProperty(copy, cut(key, LOGGED_KEY_LENGTH), { value: bounded(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function modelLabel(value: object): string {
  const id = (value as { id?: unknown }).id;
  const name = value.constructor?.name || "object";
  return typeof id === "string" || typeof id === "number" ? `[${name} ${cut(String(id), LOGGED_KEY_LENGTH)}]` : `[${name}]`;
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…(+${text.length - length} chars)`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
