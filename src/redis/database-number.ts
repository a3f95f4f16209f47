/**
 * The database a Redis URL selects, read as ioredis reads it: the path (`redis://host:6379/3`),
 * else the `db` query parameter, else 0. Keys live in their database; pub/sub does not: a message
 * published on one database reaches the subscribers of every database of that Redis, so whatever
 * Herald publishes names the database itself.
 */
export function redisDatabaseNumber(url: string): number {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 0;
  }
  const fromPath = parsed.pathname.length > 1 ? parsed.pathname.slice(1) : undefined;
  const database = Number(fromPath ?? parsed.searchParams.get("db") ?? 0);
  return Number.isInteger(database) && database >= 0 ? database : 0;
}
