import { availableParallelism } from "node:os";
import type { ResolvedAppConfig } from "../core/app-config";
import type { HeraldConfig } from "../core/config";
import { ErrorType, TypedError } from "../core/errors";

/**
 * How many server processes `herald start` runs: `--processes` or else PROCESSES, a whole
 * number of at least 1, or `auto` for one per core (os.availableParallelism). Undefined when
 * neither is given: the server runs in this process, as always.
 */
export function processCount(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): number | undefined {
  const [given, source] = flag !== undefined ? [flag, "--processes"] : [env.PROCESSES, "PROCESSES"];
  if (given === undefined) return undefined;
  if (given === "auto") return availableParallelism();
  if (/^[1-9]\d{0,3}$/.test(given)) return Number(given);
  throw new TypedError({
    message: `${source} must be a whole number of processes (1 or more) or "auto", not ${JSON.stringify(given)}`,
    type: ErrorType.CONFIG_ERROR,
    key: source === "PROCESSES" ? "PROCESSES" : "processes",
    value: given,
  });
}

/**
 * Why the app cannot run on more than one process, or undefined when it can. The embedded
 * database is a directory one process holds; without Redis, sessions, channels, rate limits and
 * the task queue live in each process's memory, so a caller's second request, landing on another
 * process, would find none of what its first one made.
 */
export function manyProcessesRefusal(config: Pick<HeraldConfig, "databaseUrl" | "redisUrl">, app: Pick<ResolvedAppConfig, "database">): string | undefined {
  if (app.database && config.databaseUrl === undefined) {
    return "the embedded database serves one process: set DATABASE_URL to a PostgreSQL server that every process shares";
  }
  if (config.redisUrl === undefined) {
    return "without Redis each process keeps its own sessions, channels, rate limits and task queue: set REDIS_URL to a Redis server that every process shares";
  }
  return undefined;
}
