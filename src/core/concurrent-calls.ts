import { z } from "zod";
import { readSettings, type HeraldConfig } from "./config";
import type { Connection } from "./connection";
import { CONNECTION_TYPE } from "./constants";
import { ErrorType, TypedError } from "./errors";

const count = z.coerce.number().int().min(0);

const settingsSchema = z.object({
  MAX_CONCURRENT_CALLS_PER_CONNECTION: count.default(8),
  MAX_CONCURRENT_CALLS_PER_ADDRESS: count.default(32),
});

/** Bounds on the calls in flight at once; 0 is no bound. */
export interface ConcurrentCallLimits {
  /** On one connection: a WebSocket; an HTTP request or an MCP call is a connection of one call. */
  perConnection: number;
  /** From one remote address, over every transport that has one. */
  perAddress: number;
}

export function readConcurrentCallLimits(config: Pick<HeraldConfig, "raw">): ConcurrentCallLimits {
  const values = readSettings(settingsSchema, config);
  return { perConnection: values.MAX_CONCURRENT_CALLS_PER_CONNECTION, perAddress: values.MAX_CONCURRENT_CALLS_PER_ADDRESS };
}

const ONE_CALL_CONNECTIONS: ReadonlySet<string> = new Set([CONNECTION_TYPE.web, CONNECTION_TYPE.task, CONNECTION_TYPE.cli, CONNECTION_TYPE.mcp]);

/** Whole seconds a refused caller is told to wait: calls in flight usually end well within it. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The calls in flight per connection and per remote address, so that one socket or one address
 * cannot take every database connection or worker of the process while others wait: a call
 * beyond a bound is refused at once with 429 CONNECTION_RATE_LIMITED instead of queued.
 */
export class ConcurrentCalls {
  private readonly byConnection = new WeakMap<Connection, number>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: ConcurrentCallLimits) {}

  /** Whether any bound is on: with none, a dispatcher keeps no count at all. */
  static anyBound(limits: ConcurrentCallLimits): boolean {
    return limits.perConnection > 0 || limits.perAddress > 0;
  }

  /**
   * Whether the connection's calls are counted: only where a bound is on, and only on connections
   * that carry many calls. An HTTP request, a job, a CLI run and an MCP call each come on a
   * connection of their own, which one call can never take over a bound.
   */
  private countsConnection(connection: Connection): boolean {
    return this.limits.perConnection > 0 && !ONE_CALL_CONNECTIONS.has(connection.type);
  }

  private addressOf(connection: Connection): string | undefined {
    return this.limits.perAddress > 0 ? connection.addressKey : undefined;
  }

  /** Counts the call in, or answers the error that refuses it (then nothing is counted). */
  enter(connection: Connection): TypedError | undefined {
    const { perConnection, perAddress } = this.limits;
    const countsConnection = this.countsConnection(connection);
    const onConnection = countsConnection ? (this.byConnection.get(connection) ?? 0) : 0;
    if (countsConnection && onConnection >= perConnection) return refusal(connection, "connection", perConnection);
    const address = this.addressOf(connection);
    const fromAddress = address === undefined ? 0 : (this.byAddress.get(address) ?? 0);
    if (address !== undefined && fromAddress >= perAddress) return refusal(connection, "address", perAddress);
    if (countsConnection) this.byConnection.set(connection, onConnection + 1);
    if (address !== undefined) this.byAddress.set(address, fromAddress + 1);
    return undefined;
  }

  /** Counts out a call that `enter` counted in. */
  leave(connection: Connection): void {
    if (this.countsConnection(connection)) {
      const onConnection = this.byConnection.get(connection) ?? 1;
      if (onConnection <= 1) this.byConnection.delete(connection);
      else this.byConnection.set(connection, onConnection - 1);
    }
    const address = this.addressOf(connection);
    if (address === undefined) return;
    const fromAddress = this.byAddress.get(address) ?? 1;
    // Deleted at zero: the map holds only the addresses with calls in flight.
    if (fromAddress <= 1) this.byAddress.delete(address);
    else this.byAddress.set(address, fromAddress - 1);
  }
}

function refusal(connection: Connection, scope: "connection" | "address", limit: number): TypedError {
  connection.responseHeaders["Retry-After"] = String(RETRY_AFTER_SECONDS);
  return new TypedError({
    message: `Too many calls at once from this ${scope}: at most ${limit} may run together, retry when one has answered`,
    type: ErrorType.CONNECTION_RATE_LIMITED,
    key: scope,
    value: { limit, retryAfter: RETRY_AFTER_SECONDS },
  });
}
