/** A Redis connection, or a driver built on some, that a health probe pings. */
export interface Pingable {
  ping(): Promise<void>;
}

/**
 * The one Redis health probe, which a driver's `ping()` (its registered health check) runs: every
 * connection answers a PING, each failing fast (no offline queue) with its typed error while
 * Redis is away, so a report never waits for a reconnection.
 */
export async function pingRedis(...connections: Pingable[]): Promise<void> {
  await Promise.all(connections.map((connection) => connection.ping()));
}
