import { RUN_MODE } from "./constants";
import { ErrorType, TypedError } from "./errors";

/**
 * A unit of boot work: open a pool, start a listener, schedule a job. The server calls `register`
 * on every initializer that applies to its run mode, then `initialize` on each in boot order, then
 * `start`, and `stop` in reverse order.
 */
export interface Initializer {
  name: string;
  /** The run modes this initializer applies to; all of them when absent. */
  runModes?: readonly (RUN_MODE | `${RUN_MODE}`)[];
  /** `false` leaves it out of the boot altogether: a built-in feature the app did not turn on. */
  readonly enabled?: boolean;
  /**
   * Orders an app's initializer among the app's initializers free to go: lower first, then by name;
   * default 1000. It does not move it before or after Herald's own initializers: `dependsOn` does.
   */
  priority?: number;
  /**
   * Names of initializers that must initialize before this one (and stop after it). Herald's own
   * initializers are ordered by it alone. The app's initializers go after Herald's that provide
   * what the app's code uses (sessions, channels, tasks, rate-limit, oauth, openapi, mcp) and
   * before those that wait for the app (task-workers, web, websocket, cli-socket); naming one of
   * those here places an app initializer after it instead.
   */
  dependsOn?: readonly string[];
  /**
   * Registers in the server's container what this initializer provides (a DataSource, a store, a
   * token), before any initializer initializes and before the app's actions, middleware and
   * channels are built, so that their constructors can take it. Herald's initializers register
   * before the app's initializers are built, so that an app initializer's constructor can take
   * what they register; the app's then register in boot order. The constructor stays free of side
   * effects: every initializer is built, whatever the run mode, but registers only where it applies.
   */
  register?(): void;
  /**
   * Herald's own initializers only: adds the built-in actions this one serves for the app, once
   * the app's actions are registered, so that it may add them only for an app that needs them
   * (the task transport's `tasks:watch`, for an app with task actions).
   */
  registerActions?(): void;
  initialize?(): Promise<void> | void;
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

export const DEFAULT_PRIORITY = 1000;

/**
 * In the `dependsOn` of one of Herald's initializers: it goes after the app's initializers (those
 * that do not wait for it themselves), as the web server does, so that it serves only once what
 * the actions need is ready.
 */
export const APP_INITIALIZERS = "(the app's initializers)";

export function isInitializerLike(value: unknown): value is Initializer {
  const candidate = value as Initializer | undefined;
  return (
    typeof candidate?.name === "string" &&
    (typeof candidate.register === "function" ||
      typeof candidate.initialize === "function" ||
      typeof candidate.start === "function" ||
      typeof candidate.stop === "function")
  );
}

export function appliesTo(initializer: Initializer, runMode: RUN_MODE): boolean {
  return initializer.enabled !== false && (!initializer.runModes || initializer.runModes.includes(runMode));
}

/** Where an initializer goes among those free to go: Herald's that provide, then the app's, then Herald's that wait for the app. */
type Place = readonly [group: number, rank: number, name: string];

/**
 * The boot order. An initializer goes after every name in its `dependsOn`; among those free to go,
 * Herald's own initializers that provide go first, in the order given (their `priority` is not
 * read), then the app's, lowest `priority` then name, then Herald's that wait for the app
 * (`APP_INITIALIZERS` in their `dependsOn`, or a dependency's), in the order given.
 */
export function orderInitializers(builtins: readonly Initializer[], app: readonly Initializer[] = []): Initializer[] {
  const initializers = [...builtins, ...app];
  const byName = namedOnce(initializers);
  for (const initializer of initializers) {
    for (const dependency of initializer.dependsOn ?? []) {
      if (dependency !== APP_INITIALIZERS && !byName.has(dependency)) {
        throw new TypedError({
          message: `Initializer "${initializer.name}" depends on "${dependency}", which is not loaded in this run mode`,
          type: ErrorType.SERVER_INITIALIZATION,
        });
      }
    }
  }
  const waitsForApp = waitingForApp(builtins, byName);
  const places = new Map<Initializer, Place>();
  builtins.forEach((initializer, index) => places.set(initializer, [waitsForApp.has(initializer) ? 2 : 0, index, ""]));
  for (const initializer of app) places.set(initializer, [1, initializer.priority ?? DEFAULT_PRIORITY, initializer.name]);
  const compare = (a: Initializer, b: Initializer) => {
    const [groupA, rankA, nameA] = places.get(a)!;
    const [groupB, rankB, nameB] = places.get(b)!;
    return groupA - groupB || rankA - rankB || nameA.localeCompare(nameB);
  };

  const ordered: Initializer[] = [];
  const done = new Set<string>();
  let pending = initializers.sort(compare);
  while (pending.length) {
    const next = pending.find((candidate) => (candidate.dependsOn ?? []).every((name) => name === APP_INITIALIZERS || done.has(name)));
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

function namedOnce(initializers: readonly Initializer[]): Map<string, Initializer> {
  const byName = new Map<string, Initializer>();
  for (const initializer of initializers) {
    if (byName.has(initializer.name) || initializer.name === APP_INITIALIZERS) {
      throw new TypedError({
        message: byName.has(initializer.name) ? `Two initializers are named "${initializer.name}"` : `No initializer may be named "${APP_INITIALIZERS}"`,
        type: ErrorType.SERVER_INITIALIZATION,
      });
    }
    byName.set(initializer.name, initializer);
  }
  return byName;
}

/** Herald's initializers that wait for the app's: those with `APP_INITIALIZERS` in their `dependsOn`, and those that depend on one of them. */
function waitingForApp(builtins: readonly Initializer[], byName: ReadonlyMap<string, Initializer>): Set<Initializer> {
  const builtin = new Set(builtins);
  const waiting = new Set<Initializer>();
  const seen = new Set<Initializer>();
  const waits = (initializer: Initializer): boolean => {
    if (seen.has(initializer)) return waiting.has(initializer);
    seen.add(initializer);
    const found = (initializer.dependsOn ?? []).some((name) => {
      if (name === APP_INITIALIZERS) return true;
      const dependency = byName.get(name)!;
      return builtin.has(dependency) && waits(dependency);
    });
    if (found) waiting.add(initializer);
    return found;
  };
  for (const initializer of builtins) waits(initializer);
  return waiting;
}
