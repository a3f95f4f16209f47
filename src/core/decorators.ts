import "reflect-metadata";
import { injectable } from "tsyringe";
import type {
  ActionDefinition,
  ActionInputs,
  ActionTransport,
  McpActionConfig,
  MiddlewareReference,
  TaskConfig,
  WebConfig,
} from "./action";

type Constructor = new (...args: any[]) => unknown;

export interface ActionOptions {
  name: string;
  description?: string;
  inputs?: ActionInputs;
  middleware?: MiddlewareReference[];
  timeout?: number;
  web?: WebConfig;
  task?: TaskConfig;
  mcp?: McpActionConfig;
  transports?: readonly ActionTransport[];
}

/**
 * Writes members onto the class prototype, so a decorated class and a plain class that sets
 * the same members produce the same registry entry. Instance fields still win over them.
 */
function defineMembers(target: Constructor, members: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(members)) {
    if (value === undefined) continue;
    Object.defineProperty(target.prototype, key, { value, writable: true, configurable: true, enumerable: false });
  }
}

/** An action is any class with the members of `ActionDefinition`; `Action` is also its decorator. */
export interface Action<Inputs extends ActionInputs | undefined = ActionInputs | undefined>
  extends ActionDefinition<Inputs> {}

export function Action(options: ActionOptions): ClassDecorator {
  return ((target: Constructor) => {
    defineMembers(target, { ...options });
    injectable()(target);
  }) as ClassDecorator;
}

/** A decorator that sets one member and makes the class injectable. */
function memberDecorator<T>(member: "web" | "task" | "mcp") {
  return (value: T): ClassDecorator =>
    ((target: Constructor) => {
      defineMembers(target, { [member]: value });
      injectable()(target);
    }) as ClassDecorator;
}

export const Web = memberDecorator<WebConfig>("web");
export const Task = memberDecorator<TaskConfig>("task");
export const Mcp = memberDecorator<McpActionConfig>("mcp");
