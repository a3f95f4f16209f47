import type { DependencyContainer } from "tsyringe";
import type { ActionDefinition } from "./action";
import { checkTransports } from "./action-transports";
import { ErrorType, TypedError } from "./errors";
import { instantiate, sourceOf } from "./loader";
import type { ActionMiddleware } from "./middleware";

export const ACTION_NAME_PATTERN = /^[a-zA-Z0-9_-]+(:[a-zA-Z0-9_-]+)+$/;

export interface RegisteredAction {
  readonly action: ActionDefinition;
  readonly name: string;
  /** The action's own middleware, resolved to instances. */
  readonly middleware: readonly ActionMiddleware[];
  readonly source: string;
  /** True for Herald's own (`status`), not the app's. */
  readonly builtin?: boolean;
}

function describeSource(instance: object): string {
  return sourceOf(instance) ?? `${instance.constructor?.name ?? "anonymous"} (registered in code)`;
}

function routeKey(action: ActionDefinition): string | undefined {
  if (!action.web) return undefined;
  const route = action.web.route instanceof RegExp ? `regexp:${action.web.route.source}` : action.web.route;
  return `${String(action.web.method).toUpperCase()} ${route}`;
}

export function isActionLike(value: unknown): value is ActionDefinition {
  const candidate = value as ActionDefinition | undefined;
  return typeof candidate?.name === "string" && typeof candidate.run === "function";
}

/** Every action of the app by name, checked for the mistakes that must fail at boot. */
export class ActionRegistry {
  private readonly byName = new Map<string, RegisteredAction>();
  private readonly byRoute = new Map<string, RegisteredAction>();
  private readonly middlewareByClass = new Map<new (...args: any[]) => object, ActionMiddleware>();

  constructor(private readonly container: DependencyContainer) {}

  /** Built-in actions may use a one-word name (`status`); app actions must be `<group>:<verb>`. */
  add(action: ActionDefinition, source = describeSource(action), options: { builtin?: boolean } = {}): RegisteredAction {
    if (!isActionLike(action)) {
      throw new TypedError({
        message: `${source} exports a class that is not an action: it needs a string "name" and a "run" method`,
        type: ErrorType.SERVER_INITIALIZATION,
      });
    }
    if (!ACTION_NAME_PATTERN.test(action.name) && !(options.builtin && /^[a-z]+$/.test(action.name))) {
      throw new TypedError({
        message: `Action name "${action.name}" in ${source} must have the shape <group>:<verb>`,
        type: ErrorType.SERVER_INITIALIZATION,
        key: "name",
        value: action.name,
      });
    }
    const existing = this.byName.get(action.name);
    if (existing) {
      throw new TypedError({
        message: `Action "${action.name}" is defined twice: in ${existing.source} and in ${source}`,
        type: ErrorType.SERVER_INITIALIZATION,
        key: "name",
        value: action.name,
      });
    }
    checkTransports(action, source);
    const key = routeKey(action);
    const routeOwner = key ? this.byRoute.get(key) : undefined;
    if (key && routeOwner) {
      throw new TypedError({
        message: `Route ${key} is claimed by "${routeOwner.name}" in ${routeOwner.source} and by "${action.name}" in ${source}`,
        type: ErrorType.SERVER_INITIALIZATION,
        key: "web",
        value: key,
      });
    }
    const entry: RegisteredAction = {
      action,
      name: action.name,
      middleware: (action.middleware ?? []).map((reference) => (typeof reference === "function" ? this.middlewareOf(reference) : reference)),
      source,
      ...(options.builtin ? { builtin: true } : {}),
    };
    this.byName.set(action.name, entry);
    if (key) this.byRoute.set(key, entry);
    return entry;
  }

  get(name: string): RegisteredAction | undefined {
    return this.byName.get(name);
  }

  list(): RegisteredAction[] {
    return [...this.byName.values()];
  }

  /**
   * The one instance of a middleware class in this server, resolved through the container the
   * first time an action (or the global chain) asks for it: a class listed by many actions is
   * built once, and one the global chain also uses is that same instance.
   */
  middlewareOf(type: MiddlewareClass): ActionMiddleware {
    const built = this.middlewareByClass.get(type);
    if (built) return built;
    const instance = instantiate(this.container, type);
    if ((instance as { global?: unknown }).global === true) {
      throw new TypedError({
        message:
          `Middleware ${type.name}${sourceOf(type) ? ` in ${sourceOf(type)}` : ""} sets "global = true" on its instances: ` +
          "a global middleware says so on its class, `static readonly global = true` (and `static readonly priority`)",
        type: ErrorType.SERVER_INITIALIZATION,
        key: "global",
        value: type.name,
      });
    }
    this.middlewareByClass.set(type, instance);
    return instance;
  }

  /** Whether some action, or the global chain, has had `type` built. */
  hasBuiltMiddleware(type: new (...args: any[]) => object): boolean {
    return this.middlewareByClass.has(type);
  }
}

type MiddlewareClass = new (...args: any[]) => ActionMiddleware;
