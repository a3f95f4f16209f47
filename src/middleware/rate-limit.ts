import { injectable } from "tsyringe";
import { z } from "zod";
import type { Connection } from "../core/connection";
import { CONNECTION_TYPE } from "../core/constants";
import { ErrorType, TypedError } from "../core/errors";
import type { ActionMiddleware } from "../core/middleware";
import { HeraldServer } from "../core/server";
import { RATE_LIMIT_STORE_TOKEN, RateLimitStore } from "./rate-limit-store";

/** Who a call counts against. */
export type RateLimitKey = "ip" | "user" | ((connection: Connection, params: Record<string, unknown>) => string | undefined);

export interface RateLimitOptions {
  /** Calls allowed in one window. */
  limit: number;
  /** The window, in milliseconds: a budget starts at its first call and is whole again when the window ends. */
  windowMs: number;
  /**
   * `"ip"` (the default): the caller's address. `"user"`: the signed-in user (see `userId`), an
   * anonymous caller by address. A function: the key it returns; `undefined` leaves the call unlimited.
   */
  by?: RateLimitKey;
  /** For `by: "user"`: the signed-in user's id; by default the `userId` of the connection's session. */
  userId?: (connection: Connection) => string | number | undefined;
  /**
   * The budget's name. Calls of every action that lists this middleware share one budget per key;
   * two rateLimit() with the same name (and key kind) share it too. Default: from the options.
   */
  name?: string;
  /**
   * Which outcomes count against the budget, told the call's error (undefined on success): by
   * default every call. A call is counted as it starts, so that calls in flight together cannot
   * pass the limit together, and taken back when it ends if its outcome does not count (a sign-in
   * limit counts failed sign-ins: `counts: (error) => error !== undefined`).
   */
  counts?: (error: Error | undefined) => boolean;
  /** A successful call forgets the key's count, as a correct password clears the failed sign-ins before it. */
  resetOnSuccess?: boolean;
}

/** What a refused call's error carries as `value`. */
export interface RateLimitExceeded {
  limit: number;
  windowMs: number;
  /** Whole seconds until the budget is whole again, as the Retry-After header says. */
  retryAfter: number;
}

/** The error a refused call ends with, as every rateLimit() declares it (`errors`). */
const RATE_LIMIT_ERRORS = {
  [ErrorType.CONNECTION_RATE_LIMITED]: z.object({
    limit: z.number().int(),
    windowMs: z.number().int(),
    retryAfter: z.number().int().describe("Whole seconds until the budget is whole again, as the Retry-After header says."),
  }) satisfies z.ZodType<RateLimitExceeded>,
} as const;

/** A rateLimit() middleware: what its `errors` declare is known to the types, for `ActionErrors`. */
export type RateLimitMiddleware = ActionMiddleware & { readonly errors: typeof RATE_LIMIT_ERRORS };

/** Calls from the command line and from queued jobs are the operator's and the app's own: never limited. */
const TRUSTED = new Set<CONNECTION_TYPE>([CONNECTION_TYPE.cli, CONNECTION_TYPE.task]);

function checkOptions(options: RateLimitOptions): void {
  for (const field of ["limit", "windowMs"] as const) {
    if (!Number.isInteger(options[field]) || options[field] < 1) {
      throw new TypedError({ message: `rateLimit: ${field} must be a whole number of at least 1`, type: ErrorType.CONFIG_ERROR, key: field });
    }
  }
}

function sessionUserId(connection: Connection): string | number | undefined {
  try {
    return connection.session?.get<string | number>("userId");
  } catch {
    // The session store is unreachable: the caller is treated as anonymous.
    return undefined;
  }
}

function keyOf(options: RateLimitOptions, connection: Connection, params: Record<string, unknown>): string | undefined {
  const by = options.by ?? "ip";
  if (typeof by === "function") {
    const key = by(connection, params);
    return key === undefined ? undefined : `key:${key}`;
  }
  const address = `ip:${connection.addressKey ?? "unknown"}`;
  if (by === "ip") return address;
  const user = (options.userId ?? sessionUserId)(connection);
  return user === undefined || user === null || user === "" ? address : `user:${user}`;
}

/**
 * A middleware that allows `limit` calls per `windowMs` to each caller, by address or by user,
 * counted in Redis across processes when REDIS_URL is set. Every limited call gets X-RateLimit-Limit,
 * -Remaining and -Reset headers over HTTP; a call over the budget fails with CONNECTION_RATE_LIMITED
 * (429) and a Retry-After header. List it on an action, or extend it into a global middleware:
 *
 * ```ts
 * @Action({ name: "session:create", middleware: [rateLimit({ limit: 5, windowMs: 60_000 })] })
 *
 * @injectable()
 * export class ApiRateLimit extends rateLimit({ limit: 600, windowMs: 60_000, by: "user" }) {
 *   static readonly global = true;
 * }
 * ```
 */
export function rateLimit(options: RateLimitOptions): new (server: HeraldServer) => RateLimitMiddleware {
  checkOptions(options);
  const by = typeof options.by === "function" ? "custom" : (options.by ?? "ip");
  const budget = options.name ?? `${options.limit}-per-${options.windowMs}ms`;

  const { counts, resetOnSuccess } = options;
  const settles = counts !== undefined || resetOnSuccess === true;

  @injectable()
  class RateLimit implements RateLimitMiddleware {
    readonly name = `rateLimit(${budget})`;
    readonly errors = RATE_LIMIT_ERRORS;
    /** Only for a budget that looks at the outcome: the others leave the chain nothing to await after the call. */
    readonly runAfter?: ActionMiddleware["runAfter"];
    private readonly store: RateLimitStore;

    constructor(server: HeraldServer) {
      if (!server) {
        throw new TypedError({
          message: "A class extending rateLimit() needs @injectable(), so that it gets the server",
          type: ErrorType.SERVER_INITIALIZATION,
        });
      }
      // Middleware is built after every initializer has registered, RateLimitInitializer its store among them.
      this.store = server.container.resolve(RATE_LIMIT_STORE_TOKEN);
      if (settles) this.runAfter = (_params, _connection, error, context) => this.settle(context?.callState, error);
    }

    async runBefore(params: Record<string, unknown>, connection: Connection): Promise<{ callState: string } | void> {
      if (TRUSTED.has(connection.type)) return;
      const key = keyOf(options, connection, params);
      if (key === undefined) return;
      const storeKey = `${by}:${budget}:${key}`;
      const { count, resetAt } = await this.store.hit(storeKey, options.windowMs);
      const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      Object.assign(connection.responseHeaders, {
        "X-RateLimit-Limit": String(options.limit),
        "X-RateLimit-Remaining": String(Math.max(0, options.limit - count)),
        "X-RateLimit-Reset": String(Math.ceil(resetAt / 1000)),
      });
      // The key is kept for runAfter: by "user" it would change when the call signs the caller in.
      if (count <= options.limit) return settles ? { callState: storeKey } : undefined;
      connection.responseHeaders["Retry-After"] = String(retryAfter);
      const exceeded: RateLimitExceeded = { limit: options.limit, windowMs: options.windowMs, retryAfter };
      throw new TypedError({
        message: `Too many calls: at most ${options.limit} every ${options.windowMs / 1000} s. Retry in ${retryAfter} s`,
        type: ErrorType.CONNECTION_RATE_LIMITED,
        key: "rateLimit",
        value: exceeded,
      });
    }

    /** Once the outcome is known: a success may clear the count, an outcome that does not count is taken back. */
    private async settle(storeKey: unknown, error: Error | undefined): Promise<void> {
      if (typeof storeKey !== "string") return;
      if (resetOnSuccess && error === undefined) await this.store.reset(storeKey);
      else if (counts && !counts(error)) await this.store.uncount(storeKey);
    }
  }
  return RateLimit;
}
