import { DEFAULT_PRIORITY } from "./initializer";
import type { ExportedClass } from "./loader";
import type { Logger } from "./logger";
import { isGlobalMiddlewareClass, type GlobalMiddlewareClass } from "./middleware";
import type { ActionRegistry } from "./registry";

/** The global classes of the app's middleware folder, lowest priority first, equal ones in file order. */
export function globalMiddlewareClasses(folder: readonly ExportedClass[]): GlobalMiddlewareClass[] {
  const global = new Set<GlobalMiddlewareClass>();
  for (const { type } of folder) if (isGlobalMiddlewareClass(type)) global.add(type);
  return [...global].sort((a, b) => (a.priority ?? DEFAULT_PRIORITY) - (b.priority ?? DEFAULT_PRIORITY));
}

/**
 * Names each class of the middleware folder that nothing runs, so that one still written in the
 * instance form of `global = true`, which is never built and so never read, is not lost silently.
 * A class a channel lists is used: the channel registry builds it.
 */
export function warnUnusedMiddleware(
  folder: readonly ExportedClass[],
  registry: ActionRegistry,
  channels: readonly unknown[],
  logger: Logger,
): void {
  const listedByChannels = new Set(channels.flatMap((channel) => (channel as { middleware?: unknown[] }).middleware ?? []));
  const warned = new Set<unknown>();
  for (const { type, exportName, file } of folder) {
    if (warned.has(type) || isGlobalMiddlewareClass(type) || listedByChannels.has(type) || registry.hasBuiltMiddleware(type)) continue;
    warned.add(type);
    logger.warn(
      { middleware: exportName, file },
      `middleware ${exportName} in ${file} is not used by any action and not global (\`static global = true\`): not built`,
    );
  }
}
