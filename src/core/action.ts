import type { z } from "zod";
import type { CONNECTION_TYPE, HTTP_METHOD, MCP_RESPONSE_FORMAT } from "./constants";
import type { Connection } from "./connection";
import type { ErrorDeclarations } from "./error-declarations";
import type { TypedError } from "./errors";
import type { ActionMiddleware } from "./middleware";
import type { SchemaInput, SchemaOutput } from "./zod-internals";

/**
 * An HTTP method: `HTTP_METHOD.GET`, or its name as a plain string in any case. A class field
 * `web = { route: "/x", method: "GET" }` widens "GET" to `string`, so any string is taken here
 * and a name that is no HTTP method fails the boot, naming the action.
 */
export type HttpMethodName = HTTP_METHOD | `${HTTP_METHOD}` | Lowercase<`${HTTP_METHOD}`> | (string & {});

export interface WebConfig {
  route: string | RegExp;
  method: HttpMethodName;
  streaming?: boolean;
}

export interface TaskConfig {
  queue: string;
  /** Runs by itself every this many ms (counted from the Unix epoch), once for the whole cluster. */
  frequency?: number;
  /** Runs by itself at each tick of this cron expression (five fields, or six with seconds), once for the whole cluster. */
  cron?: string;
  /** The IANA time zone `cron` is read in (`Europe/Paris`); the process's own when absent. */
  timezone?: string;
}

export interface McpActionConfig {
  tool?: boolean;
  /** The tool's and prompt's name; by default the action's name with `:` as `-`. */
  name?: string;
  resource?:
    | boolean
    | {
        uri?: string;
        uriTemplate?: string;
        mimeType?: string;
        /**
         * The channel whose messages change this resource: clients listening on the resource are
         * told of each message (`notifications/resources/updated`), under the channel's own rules.
         * A template's variables fill `{name}` placeholders: `"room:{room}"`.
         */
        channel?: string;
      };
  prompt?: boolean;
  responseFormat?: MCP_RESPONSE_FORMAT | `${MCP_RESPONSE_FORMAT}`;
  /**
   * OAuth scopes a caller's access token must carry to call the action over MCP, when an
   * authorization server is configured: without a token the call is answered 401 (sign in), with
   * too few scopes 403 `insufficient_scope` (docs/mcp.md, OAuth).
   */
  scopes?: string[];
  /**
   * For an action with `task`, how its tool answers a client that declared MCP's tasks extension:
   * `"optional"` (the default) and `"required"` queue the call as a job and answer with a task;
   * `"required"` also refuses a client without the extension (-32021); `"forbidden"` always runs
   * the call at once (docs/mcp.md, Tasks).
   */
  taskSupport?: "optional" | "required" | "forbidden";
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
 * What `run` returns (for a streaming action: each value it yields). Its input side is what `run`
 * hands over, a `Date` say; a client receives that value's JSON (docs/actions.md, "Outputs").
 */
export type ActionOutputs = z.ZodType;

/** What `run` may return, given the action's `outputs`: anything when it declares none. */
export type RunResult<Outputs> = Outputs extends z.ZodType ? SchemaInput<Outputs> : unknown;

/** What a `run` returns, awaited; what it yields, for an `async *run`. */
type ReturnedBy<Run> = Run extends (...args: any[]) => infer Returned
  ? Awaited<Returned> extends infer Value
    ? Value extends AsyncIterable<infer Chunk>
      ? Chunk
      : Value
    : never
  : never;

/**
 * `outputs` that describe what the class's own `run` returns. A class may or may not declare
 * `outputs`, so `run`'s return cannot be checked against `this["outputs"]` (the compiler resolves
 * a member the class lacks to nothing); instead the schema is checked against `run`, through the
 * parameter of zod's `decode`, whose type is the schema's input side and which the compiler
 * compares with what `run` returns.
 */
export type OutputsDescribing<A extends { run: unknown }> = ActionOutputs & {
  decode(value: ReturnedBy<A["run"]>, ...rest: any[]): unknown;
};

type IsAny<T> = 0 extends 1 & T ? true : false;

/** The named keys of a type, without its index signature (`Record<string, unknown> & { user: User }` → `{ user: User }`). */
type NamedKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K] };

type UnionToIntersection<U> = (U extends unknown ? (from: U) => void : never) extends (from: infer I) => void ? I : never;

/** The params one middleware hands on from `runBefore` (`updatedParams`), by their named keys. */
type ProvidedBy<M> = M extends abstract new (...args: any[]) => infer Instance
  ? ProvidedBy<Instance>
  : M extends { runBefore?: (...args: any[]) => infer Returned }
    ? Awaited<Returned> extends infer Outcome
      ? Outcome extends { updatedParams?: infer Params }
        ? IsAny<Params> extends true
          ? {}
          : NamedKeys<NonNullable<Params>>
        : {}
      : {}
    : {};

/**
 * What an action's own middleware adds to its params: the named keys of each one's
 * `updatedParams` (the signed-in user of a sign-in middleware), so `run` reads them typed.
 */
export type MiddlewareProvides<List> = List extends readonly (infer Reference)[]
  ? UnionToIntersection<ProvidedBy<Reference>> extends infer Provided
    ? [keyof Provided] extends [never]
      ? {}
      : Provided
    : {}
  : {};

type InputsOf<A> = A extends z.ZodType ? A : A extends { inputs?: infer S } ? S : undefined;
type MiddlewareOf<A> = A extends { middleware?: infer M } ? NonNullable<M> : [];
type ValidatedParams<A> = InputsOf<A> extends infer S ? (S extends z.ZodType ? z.output<S> : Record<string, unknown>) : never;

/**
 * An action: one piece of business logic, served on every transport it qualifies for.
 * Set the members directly on a class, or with the decorator of the same name.
 */
export interface ActionDefinition<Inputs extends ActionInputs | undefined = ActionInputs | undefined> {
  name: string;
  description?: string;
  inputs?: Inputs;
  /** What `run` returns; checked by the compiler, and at run time outside production (`CHECK_OUTPUTS`). */
  outputs?: OutputsDescribing<this>;
  /**
   * The typed errors `run` may end with, beyond Herald's own and its middleware's: listed in the
   * OpenAPI document and in `ActionErrors`; outside production (`CHECK_OUTPUTS`) an undeclared one
   * is logged as a contract breach. See docs/actions.md, "Declared errors".
   */
  errors?: ErrorDeclarations;
  middleware?: readonly MiddlewareReference[];
  mcp?: McpActionConfig;
  web?: WebConfig;
  timeout?: number;
  task?: TaskConfig;
  /**
   * The transports that may call the action; every one when absent. A call on any other is
   * answered as if the action did not exist. See docs/actions.md.
   */
  transports?: readonly ActionTransport[];
  /**
   * `this["inputs"]` is the implementing class's own schema, so `run(params: { other: Date })`
   * fails to compile under `implements Action`, as does a misspelt or missing param. A method
   * (its params compared both ways) rather than a property, so that `run` may take more than its
   * inputs: what its middleware adds (see `ActionParams`). Herald always passes the connection
   * and the abort signal. An `async *run` streams its response (core/streaming.ts). What it
   * returns (or yields) is checked against `outputs` by `OutputsDescribing`.
   */
  run(
    params: SchemaOutput<(this & { inputs: ActionInputs })["inputs"]>,
    connection: Connection,
    abortSignal: AbortSignal,
  ): Promise<unknown> | AsyncIterable<unknown>;
}

/**
 * The params `run` receives: the output of the action's `inputs` (a generic string-keyed record
 * without them), with what the action's own middleware adds (see `MiddlewareProvides`). `A` is
 * the action class, the options of its `@Action` decorator, or the `inputs` schema itself.
 */
export type ActionParams<A> =
  MiddlewareProvides<MiddlewareOf<A>> extends infer Provided
    ? [keyof Provided] extends [never]
      ? ValidatedParams<A>
      : ValidatedParams<A> & Provided
    : never;

/** The resolved return of `run`, plus the `error` a thrown TypedError becomes. */
export type ActionResponse<A extends { run: (...args: any[]) => unknown }> = Awaited<ReturnType<A["run"]>> & {
  error?: TypedError;
};
