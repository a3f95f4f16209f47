import { rootContainer } from "../../src/core/container";
import { createLogger } from "../../src/core/logger";
import { ActionRegistry } from "../../src/core/registry";
import { Dispatcher } from "../../src/core/dispatcher";
import { jsonLogs } from "./json-logs";
import type { ActionDefinition } from "../../src/core/action";
import { Connection, CONNECTION_TYPE, LogFormat, LogLevel, type ActionMiddleware } from "herald";

export function pipeline(
  actions: ActionDefinition[],
  options: { globalMiddleware?: ActionMiddleware[]; actionTimeout?: number; production?: boolean; checkOutputs?: boolean } = {},
) {
  const container = rootContainer.createChildContainer();
  const registry = new ActionRegistry(container);
  for (const action of actions) registry.add(action);
  const logs = jsonLogs();
  const logger = createLogger({ level: LogLevel.trace, format: LogFormat.json, destination: logs.stream });
  const dispatcher = new Dispatcher(registry, {
    logger,
    actionTimeout: options.actionTimeout ?? 300_000,
    production: options.production ?? false,
    globalMiddleware: options.globalMiddleware ?? [],
    checkOutputs: options.checkOutputs ?? false,
  });
  const connection = new Connection({ type: CONNECTION_TYPE.cli });
  return {
    dispatcher,
    registry,
    logs: logs.lines,
    logger,
    connection,
    run: (name: string, params: unknown = {}) => dispatcher.run(name, params, connection),
  };
}
