import type { UriTemplate } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ActionOutputs } from "../../core/action";
import { allowsTransport } from "../../core/action-transports";
import { CONNECTION_TYPE, MCP_RESPONSE_FORMAT } from "../../core/constants";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { cannotStream, isStreamingAction } from "../../core/streaming";
import { inputJsonSchema, outputJsonSchema } from "../../contract/json-schema";
import { paramHeadersOf, type ParamHeader } from "./param-headers";
import { toolNameOf, toolTable } from "./tool-names";

export interface ToolEntry {
  registered: RegisteredAction;
  definition: {
    name: string;
    title?: string;
    description?: string;
    inputSchema: { type: "object"; [key: string]: unknown };
    outputSchema?: ObjectSchema;
    _meta?: Record<string, unknown>;
    execution?: { taskSupport: "optional" | "required" };
  };
  format: `${MCP_RESPONSE_FORMAT}`;
  /** Whether a call may be answered with a task (MCP's tasks extension): the action has `task`, and its `mcp.taskSupport` allows it. */
  taskSupport?: "optional" | "required";
  /** Inputs a client mirrors into `Mcp-Param-*` headers (`x-mcp-header` in their schema, SEP-2243), checked against the body. */
  paramHeaders?: ParamHeader[];
  /**
   * With `outputs`: whether `structuredContent` is `{ result: value }` (true) or the value itself,
   * as `outputSchema` says. Without: decided by each value (results.ts).
   */
  wrapsResult?: boolean;
}

export interface ResourceEntry {
  registered: RegisteredAction;
  uri?: string;
  /** A resource template's text (RFC 6570), compiled by the first read: the SDK is loaded by the first MCP request. */
  uriTemplate?: string;
  mimeType: string;
  /** The channel (with `{variable}` placeholders) whose messages change the resource. */
  channel?: string;
}

export interface AppEntry {
  uri: string;
  name: string;
  html: string | (() => string | Promise<string>);
}

export interface PromptEntry {
  registered: RegisteredAction;
  name: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

/** Default resource URIs: `herald://action/<name>`, with the required inputs as a query template. */
function resourceAddress(registered: RegisteredAction, fields: string[]): { uri?: string; uriTemplate?: string } {
  const config = typeof registered.action.mcp?.resource === "object" ? registered.action.mcp.resource : {};
  if (config.uriTemplate) return { uriTemplate: config.uriTemplate };
  if (config.uri) return { uri: config.uri };
  const base = `herald://action/${registered.name}`;
  return fields.length ? { uriTemplate: `${base}{?${fields.join(",")}}` } : { uri: base };
}

function inputFields(registered: RegisteredAction): { name: string; description?: string; required: boolean }[] {
  const inputs = registered.action.inputs;
  if (!(inputs instanceof z.ZodObject)) return [];
  return Object.entries(inputs.shape as Record<string, z.ZodType>).map(([name, schema]) => ({
    name,
    ...(schema.description ? { description: schema.description } : {}),
    required: !schema.safeParse(undefined).success,
  }));
}

type ObjectSchema = { type: "object"; [key: string]: unknown };

/**
 * A tool's `outputSchema`, which MCP wants to be an object: the value's own schema when it is one,
 * else `{ result }` around it (a streaming tool's list of values included), which is then how
 * `structuredContent` holds the value (results.ts).
 */
function toolOutput(outputs: ActionOutputs, streaming: boolean): { outputSchema: ObjectSchema; wrapsResult: boolean } {
  const value = outputJsonSchema(outputs);
  if (!streaming && value.type === "object") return { outputSchema: value as ObjectSchema, wrapsResult: false };
  const result = streaming ? { type: "array", items: value } : value;
  return { outputSchema: { type: "object", properties: { result }, required: ["result"] }, wrapsResult: true };
}

/** What an action set looks like to MCP clients: tools, resources, templates, prompts, apps. */
/**
 * The JSON Schema dialect an action's inputs declare (`.meta({ $schema })`), which a tool's
 * `inputSchema` keeps (SEP-1613); none is written otherwise, and 2020-12 is then the default.
 */
function dialectOf(inputs: z.ZodType | undefined): { $schema?: string } {
  const dialect = (inputs?.meta() as { $schema?: unknown } | undefined)?.$schema;
  return typeof dialect === "string" ? { $schema: dialect } : {};
}

/** How a tool takes tasks: only an action with `task` may, as its `mcp.taskSupport` says. */
function taskSupportOf(registered: RegisteredAction): "optional" | "required" | undefined {
  const { action } = registered;
  const asked = action.mcp?.taskSupport;
  if (!action.task) {
    if (asked === undefined || asked === "forbidden") return undefined;
    throw new TypedError({
      message: `Action "${registered.name}" sets mcp.taskSupport to "${asked}" without "task": a task is its job, and it has no queue; add task: { queue }`,
      type: ErrorType.SERVER_INITIALIZATION,
    });
  }
  return asked === "forbidden" ? undefined : (asked ?? "optional");
}

export class McpCatalog {
  readonly tools = new Map<string, ToolEntry>();
  readonly resources: ResourceEntry[] = [];
  readonly prompts = new Map<string, PromptEntry>();
  readonly apps = new Map<string, AppEntry>();
  private templates: Map<ResourceEntry, UriTemplate> | undefined;

  /** `leaveOut`: actions this catalog's callers could never use (over stdio, those that need a sign-in). */
  constructor(registered: readonly RegisteredAction[], options: { leaveOut?: (registered: RegisteredAction) => boolean } = {}) {
    // An action MCP may not call is no tool, resource or prompt: a call to it is one to an unknown name.
    const actions = registered.filter((entry) => allowsTransport(entry.action, CONNECTION_TYPE.mcp) && !options.leaveOut?.(entry));
    const exposed = actions.filter((registered) => registered.action.mcp?.tool !== false);
    const table = toolTable(exposed);
    for (const [name, registered] of table) {
      const { action } = registered;
      const app = action.mcp?.app;
      if (app) this.apps.set(app.uri, { uri: app.uri, name: `${registered.name} app`, html: app.html });
      const inputSchema = action.inputs ? inputJsonSchema(action.inputs) : { type: "object", properties: {} };
      const output = action.outputs && toolOutput(action.outputs, isStreamingAction(action));
      const taskSupport = taskSupportOf(registered);
      const paramHeaders = paramHeadersOf(inputSchema as { properties?: unknown });
      this.tools.set(name, {
        registered,
        format: action.mcp?.responseFormat ?? MCP_RESPONSE_FORMAT.JSON,
        ...(output ? { wrapsResult: output.wrapsResult } : {}),
        ...(taskSupport ? { taskSupport } : {}),
        ...(paramHeaders.length ? { paramHeaders } : {}),
        definition: {
          name,
          ...(action.mcp?.title ? { title: action.mcp.title } : {}),
          ...(action.description ? { description: action.description } : {}),
          inputSchema: { ...dialectOf(action.inputs), ...inputSchema, type: "object" } as ToolEntry["definition"]["inputSchema"],
          ...(output ? { outputSchema: output.outputSchema } : {}),
          ...(app ? { _meta: { ui: { resourceUri: app.uri }, "ui/resourceUri": app.uri } } : {}),
          ...(taskSupport ? { execution: { taskSupport } } : {}),
        },
      });
    }
    for (const registered of actions) {
      const mcp = registered.action.mcp;
      if (!mcp?.resource && !mcp?.prompt) continue;
      // A resource read and a prompt get one answer, with no notifications to carry the values before it.
      if (isStreamingAction(registered.action)) {
        const what = mcp.resource ? "an MCP resource" : "an MCP prompt";
        const remedy = mcp.resource ? `set mcp.resource to false, or leave "mcp" out of its transports` : `set mcp.prompt to false, or leave "mcp" out of its transports`;
        throw cannotStream(registered.action, what, remedy);
      }
      const fields = inputFields(registered);
      if (mcp.resource) {
        const config = typeof mcp.resource === "object" ? mcp.resource : {};
        const required = fields.filter((field) => field.required).map((field) => field.name);
        this.resources.push({
          registered,
          mimeType: config.mimeType || "application/json",
          ...resourceAddress(registered, required),
          ...(config.channel ? { channel: config.channel } : {}),
        });
      }
      if (mcp.prompt) {
        const name = toolNameOf(registered);
        this.prompts.set(name, { registered, name, arguments: fields });
      }
    }
  }

  /** Every scope an action asks for (`mcp.scopes`), for the protected resource metadata. */
  get scopes(): string[] {
    const all = new Set<string>();
    for (const entry of this.tools.values()) for (const scope of entry.registered.action.mcp?.scopes ?? []) all.add(scope);
    for (const entry of this.resources) for (const scope of entry.registered.action.mcp?.scopes ?? []) all.add(scope);
    for (const entry of this.prompts.values()) for (const scope of entry.registered.action.mcp?.scopes ?? []) all.add(scope);
    return [...all].sort();
  }

  /**
   * The scopes the calls of a request body need (a batch: all of its calls'), with the name of
   * one that needs them, for the challenge.
   */
  scopesNeededBy(body: unknown): { name: string; scopes: string[] } | undefined {
    const needed = new Set<string>();
    let name = "";
    for (const message of (Array.isArray(body) ? body : [body]) as { method?: unknown; params?: { name?: unknown; uri?: unknown } }[]) {
      const params = message?.params;
      const registered =
        message?.method === "tools/call" && typeof params?.name === "string"
          ? this.tools.get(params.name)?.registered
          : message?.method === "prompts/get" && typeof params?.name === "string"
            ? this.prompts.get(params.name)?.registered
            : message?.method === "resources/read" && typeof params?.uri === "string"
              ? this.matchResource(params.uri)?.entry.registered
              : undefined;
      const scopes = registered?.action.mcp?.scopes ?? [];
      if (scopes.length && !name) name = String(params?.name ?? params?.uri);
      for (const scope of scopes) needed.add(scope);
    }
    return needed.size ? { name, scopes: [...needed] } : undefined;
  }

  /** The resource an URI names, and the params its template variables carry. */
  matchResource(uri: string): { entry: ResourceEntry; params: Record<string, unknown> } | undefined {
    if (!this.templates) {
      const { UriTemplate } = require("@modelcontextprotocol/server") as typeof import("@modelcontextprotocol/server");
      this.templates = new Map(this.resources.filter((entry) => entry.uriTemplate).map((entry) => [entry, new UriTemplate(entry.uriTemplate!)]));
    }
    for (const entry of this.resources) {
      if (entry.uri === uri) return { entry, params: {} };
      const variables = this.templates.get(entry)?.match(uri);
      if (variables) return { entry, params: { ...variables } };
    }
    return undefined;
  }
}
