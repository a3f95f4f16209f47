import "reflect-metadata";
import { injectable } from "tsyringe";
import type { Connection } from "./connection";
import type {
  ActionDefinition,
  ActionInputs,
  ActionOutputs,
  ActionParams,
  ActionTransport,
  McpActionConfig,
  MiddlewareReference,
  RunResult,
  TaskConfig,
  WebConfig,
} from "./action";
import type { ErrorDeclarations } from "./error-declarations";

type Constructor = new (...args: any[]) => unknown;

export interface ActionOptions {
  name: string;
  description?: string;
  inputs?: ActionInputs;
  outputs?: ActionOutputs;
  errors?: ErrorDeclarations;
  middleware?: readonly MiddlewareReference[];
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

type OutputsOf<Options> = Options extends { outputs: infer Outputs } ? Outputs : undefined;

/**
 * A class whose `run` takes what the decorator's `inputs` and `middleware` give it, and returns
 * what its `outputs` describe: the class has no such members for `implements Action` to check
 * against, so the decorator checks them.
 */
type RunsWith<Options> = abstract new (...args: any[]) => {
  run(
    params: ActionParams<Options>,
    connection: Connection,
    abortSignal: AbortSignal,
  ): Promise<RunResult<OutputsOf<Options>>> | AsyncIterable<RunResult<OutputsOf<Options>>>;
};

export function Action<Options extends ActionOptions>(options: Options): <C extends RunsWith<Options>>(target: C) => void {
  return (target) => {
    defineMembers(target as unknown as Constructor, { ...(options as ActionOptions) } as Record<string, unknown>);
    injectable()(target as unknown as Constructor);
  };
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
