import type { ServerResponse } from "node:http";
import { REQUEST_ID_HEADER } from "./request-id";

/**
 * The headers every action answer starts with, held back rather than set one by one: node:http
 * validates, lower-cases and stores each `setHeader`, and for the fifteen headers of a small JSON
 * answer that costs more than twice one `writeHead` with all of them (measured in
 * docs/performance.md). Every answer to a request beneath the API prefix is written by Herald:
 * the JSON writer (results and every error), the `Response` and event-stream writers, and the
 * action path's `204`s (`OPTIONS`, CORS's preflight); nothing else writes to those responses. The
 * small JSON answer sends the held headers in that one `writeHead`; every other writer releases
 * them onto the response first, so nothing is sent without them.
 */
export interface HeldHeaders {
  requestId: string;
  /** The security headers, the same object for every response (see `securityHeaders`). */
  fixed: Readonly<Record<string, string>>;
  cacheControl: string | undefined;
}

const HELD = Symbol("herald.heldHeaders");
type Holding = ServerResponse & { [HELD]?: HeldHeaders };

export function holdHeaders(res: ServerResponse, held: HeldHeaders): void {
  (res as Holding)[HELD] = held;
}

/** Cache-Control, held with the others when the response holds them, else set at once. */
export function setCacheControl(res: ServerResponse, value: string): void {
  const held = (res as Holding)[HELD];
  if (held) held.cacheControl = value;
  else res.setHeader("Cache-Control", value);
}

/** The held headers, taken off the response; undefined when it holds none. */
export function takeHeldHeaders(res: ServerResponse): HeldHeaders | undefined {
  const held = (res as Holding)[HELD];
  if (held) (res as Holding)[HELD] = undefined;
  return held;
}

/**
 * All the held headers as one object, in the order the Express application sets them on what it
 * answers (mounts, static files), with `more` after them: for `writeHead` on a response nothing
 * else was set on.
 */
export function heldHeaderObject(held: HeldHeaders, more: Record<string, string | number>): Record<string, string | number> {
  const headers: Record<string, string | number> = { [REQUEST_ID_HEADER]: held.requestId, ...held.fixed };
  if (held.cacheControl !== undefined) headers["Cache-Control"] = held.cacheControl;
  return Object.assign(headers, more);
}

/**
 * Sets the held headers on the response now (those `takeHeldHeaders` took, when given). One set since (an action's own `Cache-Control`, a
 * `Connection: close`) came later, so it stays, as it would over an earlier `setHeader`.
 */
export function releaseHeldHeaders(res: ServerResponse, held = takeHeldHeaders(res)): void {
  if (!held) return;
  const all = heldHeaderObject(held, {});
  for (const name in all) if (!res.hasHeader(name)) res.setHeader(name, all[name]!);
}
