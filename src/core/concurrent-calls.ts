import { z } from "zod";
import { readSettings, type HeraldConfig } from "./config";
import type { Connection } from "./connection";
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

  /** Counts the call in, or answers the error that refuses it (then nothing is counted). */
  enter(connection: Connection): TypedError | undefined {
    const { perConnection, perAddress } = this.limits;
    const onConnection = this.byConnection.get(connection) ?? 0;
    if (perConnection > 0 && onConnection >= perConnection) return refusal(connection, "connection", perConnection);
    const address = connection.remoteAddress;
    const fromAddress = address === undefined ? 0 : (this.byAddress.get(address) ?? 0);
    if (address !== undefined && perAddress > 0 && fromAddress >= perAddress) return refusal(connection, "address", perAddress);
    this.byConnection.set(connection, onConnection + 1);
    if (address !== undefined) this.byAddress.set(address, fromAddress + 1);
    return undefined;
  }

  /** Counts out a call that `enter` counted in. */
  leave(connection: Connection): void {
    const onConnection = this.byConnection.get(connection) ?? 1;
    if (onConnection <= 1) this.byConnection.delete(connection);
    else this.byConnection.set(connection, onConnection - 1);
    const address = connection.remoteAddress;
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
