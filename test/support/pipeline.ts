import { Writable } from "node:stream";
import { rootContainer } from "../../src/core/container";
import { createLogger } from "../../src/core/logger";
import { ActionRegistry } from "../../src/core/registry";
import { Dispatcher } from "../../src/core/dispatcher";
import type { ActionDefinition } from "../../src/core/action";
import { Connection, CONNECTION_TYPE, LogFormat, LogLevel, type ActionMiddleware } from "herald";

/** Captures JSON log lines in memory. */
export function captureLogs() {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger({ level: LogLevel.trace, format: LogFormat.json, destination: stream });
  return { lines, logger, stream };
}

export function pipeline(
  actions: ActionDefinition[],
  options: { globalMiddleware?: ActionMiddleware[]; actionTimeout?: number; production?: boolean } = {},
) {
  const container = rootContainer.createChildContainer();
  const registry = new ActionRegistry(container);
  for (const action of actions) registry.add(action);
  const logs = captureLogs();
  const dispatcher = new Dispatcher(registry, {
    logger: logs.logger,
    actionTimeout: options.actionTimeout ?? 300_000,
    production: options.production ?? false,
    globalMiddleware: options.globalMiddleware ?? [],
  });
  const connection = new Connection({ type: CONNECTION_TYPE.cli });
  return {
    dispatcher,
    registry,
    logs: logs.lines,
    logger: logs.logger,
    connection,
    run: (name: string, params: unknown = {}) => dispatcher.run(name, params, connection),
  };
}
