import pino from "pino";
import { tokenFor } from "./token-for";
import { activeTraceIds } from "./trace-ids";
import type pinoPretty from "pino-pretty";
import { LogFormat, LogLevel } from "./constants";
import { TurnBatchedDestination } from "./turn-batched-destination";

type LogFn = pino.LogFn;

/**
 * The injection token for the process logger (a pino logger). Inject it by type:
 * `constructor(private logger: Logger) {}`.
 */
export abstract class Logger {
  abstract level: string;
  abstract trace: LogFn;
  abstract debug: LogFn;
  abstract info: LogFn;
  abstract warn: LogFn;
  abstract error: LogFn;
  abstract fatal: LogFn;
  abstract child(bindings: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  level: LogLevel | "silent";
  format: LogFormat;
  name?: string;
  /** Where lines go: a file descriptor (1 stdout, 2 stderr) or a writable stream. */
  destination?: number | NodeJS.WritableStream;
  /** Whether lines carry the active span's `trace_id` and `span_id`: only with tracing on, where it costs a lookup a line. */
  traceIds?: boolean;
}

export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? 1;
  const stream =
    options.format === LogFormat.text
      ? // Required for the text format only: a production process never loads it.
        (require("pino-pretty") as typeof pinoPretty)({
          sync: true,
          colorize: typeof destination === "number" && Boolean(process.stdout.isTTY),
          destination: destination as number,
          ignore: "pid,hostname",
          translateTime: "SYS:HH:MM:ss.l",
        })
      : typeof destination === "number"
        ? new TurnBatchedDestination(pino.destination({ dest: destination, sync: true }))
        : destination;
  return pino(
    { level: options.level, ...(options.name ? { name: options.name } : {}), ...(options.traceIds ? { mixin: activeTraceIds } : {}) },
    stream,
  ) as unknown as Logger;
}

/** `Logger` as a container token. */
export const LOGGER_TOKEN = tokenFor(Logger);

/**
 * Whether a line at `level` would be written: lets a caller skip building a line nobody reads.
 * Reads the logger's `level`, so a logger of the app's own (through LOGGER_TOKEN) works too.
 */
export function isLevelOn(logger: Logger, level: `${LogLevel}`): boolean {
  const threshold = pino.levels.values[logger.level];
  return threshold === undefined ? logger.level !== "silent" : threshold <= pino.levels.values[level]!;
}
