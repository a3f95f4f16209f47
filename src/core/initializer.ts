import { RUN_MODE } from "./constants";
import { ErrorType, TypedError } from "./errors";

/**
 * A unit of boot work: open a pool, start a listener, schedule a job. The server calls
 * `initialize` on every applicable initializer, then `start`, and `stop` in reverse order.
 */
export interface Initializer {
  name: string;
  /** The run modes this initializer applies to; all of them when absent. */
  runModes?: readonly (RUN_MODE | `${RUN_MODE}`)[];
  /** Lower runs first; default 1000. */
  priority?: number;
  /** Names of initializers that must be initialized before this one. */
  dependsOn?: readonly string[];
  initialize?(): Promise<void> | void;
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

export const DEFAULT_PRIORITY = 1000;

export function isInitializerLike(value: unknown): value is Initializer {
  const candidate = value as Initializer | undefined;
  return (
    typeof candidate?.name === "string" &&
    (typeof candidate.initialize === "function" ||
      typeof candidate.start === "function" ||
      typeof candidate.stop === "function")
  );
}

export function appliesTo(initializer: Initializer, runMode: RUN_MODE): boolean {
  return !initializer.runModes || initializer.runModes.includes(runMode);
}

/**
 * Orders initializers so that every `dependsOn` comes first and, among those that are free
 * to go, the lowest priority (then the name) goes first.
 */
export function orderInitializers(initializers: readonly Initializer[]): Initializer[] {
  const byName = new Map<string, Initializer>();
  for (const initializer of initializers) {
    if (byName.has(initializer.name)) {
      throw new TypedError({
        message: `Two initializers are named "${initializer.name}"`,
        type: ErrorType.SERVER_INITIALIZATION,
      });
    }
    byName.set(initializer.name, initializer);
  }
  for (const initializer of initializers) {
    for (const dependency of initializer.dependsOn ?? []) {
      if (!byName.has(dependency)) {
        throw new TypedError({
          message: `Initializer "${initializer.name}" depends on "${dependency}", which is not loaded in this run mode`,
          type: ErrorType.SERVER_INITIALIZATION,
        });
      }
    }
  }
  const ordered: Initializer[] = [];
  const done = new Set<string>();
  const compare = (a: Initializer, b: Initializer) =>
    (a.priority ?? DEFAULT_PRIORITY) - (b.priority ?? DEFAULT_PRIORITY) || a.name.localeCompare(b.name);
  let pending = [...initializers].sort(compare);
  while (pending.length) {
    const next = pending.find((candidate) => (candidate.dependsOn ?? []).every((name) => done.has(name)));
    if (!next) {
      throw new TypedError({
        message: `Initializers depend on each other in a cycle: ${pending.map((i) => i.name).join(", ")}`,
        type: ErrorType.SERVER_INITIALIZATION,
      });
    }
    ordered.push(next);
    done.add(next.name);
    pending = pending.filter((candidate) => candidate !== next);
  }
  return ordered;
}
