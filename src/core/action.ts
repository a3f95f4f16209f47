import type { z } from "zod";
import type { CONNECTION_TYPE, HTTP_METHOD, MCP_RESPONSE_FORMAT } from "./constants";
import type { Connection } from "./connection";
import type { TypedError } from "./errors";
import type { ActionMiddleware } from "./middleware";

export interface WebConfig {
  route: string | RegExp;
  method: HTTP_METHOD | `${HTTP_METHOD}`;
  streaming?: boolean;
}

export interface TaskConfig {
  queue: string;
  frequency?: number;
}

export interface McpActionConfig {
  tool?: boolean;
  resource?: boolean | { uri?: string; uriTemplate?: string; mimeType?: string };
  prompt?: boolean;
  responseFormat?: MCP_RESPONSE_FORMAT | `${MCP_RESPONSE_FORMAT}`;
  /** An MCP App: a `ui://` resource linked from the tool's metadata. */
  app?: { uri: string; html: string | (() => string | Promise<string>) };
  title?: string;
}

/** A middleware as listed on an action: an instance, or a class resolved through the container. */
export type MiddlewareReference = ActionMiddleware | (new (...args: any[]) => ActionMiddleware);

/** A transport by its connection type: `"web"`, `"websocket"`, `"cli"`, `"task"` or `"mcp"`. */
export type ActionTransport = CONNECTION_TYPE | `${CONNECTION_TYPE}`;

export type ActionInputs = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/**
 * An action: one piece of business logic, served on every transport it qualifies for.
 * Set the members directly on a class, or with the decorator of the same name.
 */
export interface ActionDefinition<Inputs extends ActionInputs | undefined = ActionInputs | undefined> {
  name: string;
  description?: string;
  inputs?: Inputs;
  middleware?: MiddlewareReference[];
  mcp?: McpActionConfig;
  web?: WebConfig;
  timeout?: number;
  task?: TaskConfig;
  /**
   * The transports that may call the action; every one when absent. A call on any other is
   * answered as if the action did not exist. See docs/actions.md.
   */
  transports?: readonly ActionTransport[];
  run(params: any, connection?: Connection, abortSignal?: AbortSignal): Promise<unknown>;
}

/** The validated input of an action, inferred from its `inputs` schema. */
export type ActionParams<A> = A extends { inputs: infer S }
  ? S extends z.ZodType
    ? z.output<S>
    : Record<string, unknown>
  : A extends { inputs?: infer S }
    ? S extends z.ZodType
      ? z.output<S>
      : Record<string, unknown>
    : Record<string, unknown>;

/** The resolved return of `run`, plus the `error` a thrown TypedError becomes. */
export type ActionResponse<A extends { run: (...args: any[]) => unknown }> = Awaited<ReturnType<A["run"]>> & {
  error?: TypedError;
};
