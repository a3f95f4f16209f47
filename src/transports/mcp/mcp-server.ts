import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type GetPromptResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { CONNECTION_TYPE, MCP_APP_MIME_TYPE } from "../../core/constants";
import { Connection, flattenHeaders } from "../../core/connection";
import { errorBody, toTypedError } from "../../core/error-body";
import { encodeResponse } from "../../core/response-encoder";
import type { HeraldServer } from "../../core/server";
import { shuttingDown } from "../../core/shutting-down";
import { abortAbandoned } from "./abandoned-call";
import { precomputedCall } from "./auth-precheck";
import { McpCatalog } from "./catalog";
import { requestCaller } from "./request-caller";
import { toolResult } from "./results";

type Extra = {
  sessionId?: string;
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  requestInfo?: { headers: Record<string, string | string[] | undefined> };
  sendNotification: (notification: any) => Promise<void>;
};

export function connectionFor(extra: Extra): Connection {
  const headers = flattenHeaders(extra.requestInfo?.headers ?? {});
  const progressToken = extra._meta?.progressToken;
  const remoteAddress = requestCaller.getStore()?.remoteAddress;
  return new Connection({
    type: CONNECTION_TYPE.mcp,
    ...(remoteAddress ? { remoteAddress } : {}),
    ...(extra.sessionId ? { id: extra.sessionId } : {}),
    headers,
    ...(progressToken !== undefined
      ? {
          progressReporter: (update) =>
            extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }),
        }
      : {}),
  });
}

/**
 * The controller of one call: the SDK aborts a handler's signal without a reason of Herald's when
 * the client cancels the call (`notifications/cancelled`) or its stream closes, and when the
 * server closes the transport at shutdown; the call ends as client gone or as shutting down.
 */
function callController(extra: Extra, herald: HeraldServer): AbortController {
  const controller = new AbortController();
  const abort = () => {
    if (herald.status === "stopping") controller.abort(shuttingDown());
    else abortAbandoned(controller, "cancelled or closed");
  };
  if (extra.signal.aborted) abort();
  else extra.signal.addEventListener("abort", abort, { once: true });
  return controller;
}

/** An MCP server (the SDK's low-level one) whose every call goes through Herald's dispatcher. */
export function buildMcpServer(herald: HeraldServer, catalog: McpCatalog): Server {
  const mcp = new Server(
    { name: herald.config.name, version: herald.app ? readVersion() : "0.0.0" },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  const production = herald.config.production;

  mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...catalog.tools.values()].map((entry) => entry.definition),
  }));

  mcp.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = catalog.tools.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}"`);
    const precomputed = precomputedCall.getStore();
    const connection = connectionFor(extra);
    const result =
      precomputed?.toolName === request.params.name
        ? precomputed.result
        : await herald.dispatcher.run(entry.registered.name, request.params.arguments ?? {}, connection, {
            controller: callController(extra, herald),
          });
    return toolResult(result, {
      format: entry.format,
      production,
      logger: herald.logger,
      ...(entry.wrapsResult !== undefined ? { wrapsResult: entry.wrapsResult } : {}),
      signal: extra.signal,
      connection,
    });
  });

  mcp.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      ...catalog.resources
        .filter((entry) => entry.uri)
        .map((entry) => ({
          uri: entry.uri!,
          name: entry.registered.name,
          mimeType: entry.mimeType,
          ...(entry.registered.action.description ? { description: entry.registered.action.description } : {}),
        })),
      ...[...catalog.apps.values()].map((app) => ({ uri: app.uri, name: app.name, mimeType: MCP_APP_MIME_TYPE })),
    ],
  }));

  mcp.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: catalog.resources
      .filter((entry) => entry.template)
      .map((entry) => ({
        uriTemplate: entry.template!.toString(),
        name: entry.registered.name,
        mimeType: entry.mimeType,
        ...(entry.registered.action.description ? { description: entry.registered.action.description } : {}),
      })),
  }));

  mcp.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const app = catalog.apps.get(uri);
    if (app) {
      const html = typeof app.html === "function" ? await app.html() : app.html;
      return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: html }] };
    }
    const match = catalog.matchResource(uri);
    if (!match) throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${uri}"`);
    const result = await herald.dispatcher.run(match.entry.registered.name, match.params, connectionFor(extra), {
      controller: callController(extra, herald),
    });
    if (result.error) {
      throw new McpError(ErrorCode.InvalidParams, result.error.message, errorBody(result.error, production));
    }
    const text = typeof result.response === "string" ? result.response : encodeOrRefuse(result.actionName, result.response, production);
    return { contents: [{ uri, mimeType: match.entry.mimeType, text }] };
  });

  mcp.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [...catalog.prompts.values()].map((entry) => ({
      name: entry.name,
      ...(entry.registered.action.description ? { description: entry.registered.action.description } : {}),
      arguments: entry.arguments,
    })),
  }));

  mcp.setRequestHandler(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
    const entry = catalog.prompts.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${request.params.name}"`);
    const result = await herald.dispatcher.run(entry.registered.name, request.params.arguments ?? {}, connectionFor(extra), {
      controller: callController(extra, herald),
    });
    if (result.error) {
      throw new McpError(ErrorCode.InvalidParams, result.error.message, errorBody(result.error, production));
    }
    return promptResult(result.actionName, result.response, entry.registered.action.description, production);
  });

  return mcp;
}

/** A prompt action returns a string, `{ messages }`, or any value (sent as JSON text). */
function promptResult(actionName: string, response: unknown, description: string | undefined, production: boolean): GetPromptResult {
  const withDescription = description ? { description } : {};
  if (typeof response === "object" && response !== null && Array.isArray((response as { messages?: unknown }).messages)) {
    return { ...withDescription, messages: (response as GetPromptResult).messages };
  }
  const text = typeof response === "string" ? response : encodeOrRefuse(actionName, response, production);
  return { ...withDescription, messages: [{ role: "user", content: { type: "text", text } }] };
}

/** The response as JSON text; one JSON cannot carry is the request's error, with the core error body. */
function encodeOrRefuse(actionName: string, response: unknown, production: boolean): string {
  try {
    return encodeResponse(actionName, response);
  } catch (thrown) {
    const error = toTypedError(thrown, production);
    throw new McpError(ErrorCode.InternalError, error.message, errorBody(error, production));
  }
}

function readVersion(): string {
  return (require("../../../package.json") as { version: string }).version;
}
