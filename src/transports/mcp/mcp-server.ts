import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type GetPromptResult,
  type InputRequiredResult,
  type ReadResourceResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { markActionCall } from "../../core/access-log";
import { appVersion } from "../../core/app-manifest";
import { CONNECTION_TYPE, MCP_APP_MIME_TYPE } from "../../core/constants";
import { answersRead, Connection, flattenHeaders, type ConnectionInit } from "../../core/connection";
import { ErrorType } from "../../core/errors";
import type { ActionResult } from "../../core/action-result";
import type { RunInstead } from "../../core/call-outcome";
import type { HeraldServer } from "../../core/server";
import { shuttingDown } from "../../core/shutting-down";
import { abortAbandoned } from "./abandoned-call";
import type { McpAsking } from "./asking";
import { McpCatalog } from "./catalog";
import { completionsFor } from "./completions";
import { requestCaller } from "./request-caller";
import { withinMcpSpan } from "./request-span";
import { isMcpContent, isPromptBody, isResourceBody, promptResult, resourceResult, toolResult } from "./results";
import { TaskAwareServer } from "./task-aware-server";
import { askableKinds, declaresTasks, McpTasks, TASKS_EXTENSION, tasksCapabilityRequired } from "./tasks";
import { z } from "zod";

/** The refusals a sign-in cures. */
const NOT_SIGNED_IN = new Set<ErrorType>([ErrorType.CONNECTION_NOT_AUTHENTICATED, ErrorType.CONNECTION_SESSION_NOT_FOUND]);

/** `_meta` keys of W3C trace context that a caller may send with any request. */
const TRACE_KEYS = ["traceparent", "tracestate"] as const;

/**
 * The connection of one MCP request: the HTTP request's headers and caller (none over stdio),
 * the trace context of its `_meta` where the headers carry none, progress sent back on the
 * request's own stream when the caller gave a progress token, and what its action may ask.
 */
export function connectionFor(ctx: ServerContext, asking: Pick<ConnectionInit, "callerInput" | "cannotAsk"> = {}): Connection {
  const caller = requestCaller.getStore();
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const traced = TRACE_KEYS.filter((key) => typeof meta?.[key] === "string" && caller?.headers[key] === undefined);
  // Node's headers are flattened only if something reads them, unless _meta's trace context joins them.
  const headers = traced.length
    ? { headers: { ...flattenHeaders(caller?.headers ?? {}), ...Object.fromEntries(traced.map((key) => [key, meta![key] as string])) } }
    : caller
      ? { incomingHeaders: caller.headers }
      : {};
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return new Connection({
    type: CONNECTION_TYPE.mcp,
    ...(caller?.requestId ? { requestId: caller.requestId } : {}),
    ...(caller?.remoteAddress ? { remoteAddress: caller.remoteAddress } : {}),
    ...(caller?.auth ? { auth: caller.auth } : {}),
    ...(caller?.session ? { session: caller.session } : {}),
    ...headers,
    ...(progressToken !== undefined
      ? {
          progressReporter: (update) => ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...update } }),
        }
      : {}),
    // The SDK sends it at or above the level the client set (logging/setLevel, or 2026-07-28's per-request _meta), else drops it.
    logReporter: (level, data) => ctx.mcpReq.log(level, data),
    ...asking,
  });
}

/**
 * The controller of one call: the SDK aborts a handler's signal without a reason of Herald's when
 * the client's stream closes or the handler is closed at shutdown, and Herald aborts it when a
 * `notifications/cancelled` names the call (in-flight-calls.ts); the call ends as client gone or
 * as shutting down.
 */
function callController(ctx: ServerContext, herald: HeraldServer): AbortController {
  const controller = new AbortController();
  const abort = () => {
    if (herald.status === "stopping") controller.abort(shuttingDown());
    else abortAbandoned(controller, "cancelled or closed");
  };
  if (ctx.mcpReq.signal.aborted) abort();
  else ctx.mcpReq.signal.addEventListener("abort", abort, { once: true });
  const forget = requestCaller.getStore()?.inFlight.track(ctx.mcpReq.id, controller);
  if (forget) controller.signal.addEventListener("abort", forget, { once: true });
  return controller;
}

/**
 * Runs the action behind an MCP request with the request's connection and controller, and
 * answers from its result; the call stays cancellable until the answer is made, a stream's last
 * value included.
 */
async function runFor<T>(
  herald: HeraldServer,
  call: { actionName: string; params: unknown; ctx: ServerContext; connection?: Connection; frames?: (response: unknown) => boolean; runInstead?: RunInstead },
  answer: (result: ActionResult) => T | Promise<T>,
): Promise<T> {
  const controller = callController(call.ctx, herald);
  const caller = requestCaller.getStore();
  if (caller) markActionCall(caller.response);
  try {
    const result = await herald.dispatcher.run(call.actionName, call.params ?? {}, call.connection ?? connectionFor(call.ctx), {
      controller,
      logFields: { jsonrpcId: call.ctx.mcpReq.id },
      ...(call.frames ? { frames: call.frames } : {}),
      ...(call.runInstead ? { runInstead: call.runInstead } : {}),
    });
    return await answer(result);
  } finally {
    requestCaller.getStore()?.inFlight.forget(call.ctx.mcpReq.id, controller);
  }
}

const TaskParams = z.object({ taskId: z.string() }).passthrough();

/** `tasks/get`, `tasks/cancel` and `tasks/update`, for a client that declared the tasks extension. */
function serveTasks(mcp: TaskAwareServer, catalog: McpCatalog, tasks: McpTasks): void {
  const toolOf = (actionName: string) => [...catalog.tools.values()].find((entry) => entry.registered.name === actionName);
  const declared = (ctx: ServerContext, method: string) => {
    if (!declaresTasks(ctx, mcp.getClientCapabilities())) throw tasksCapabilityRequired(method);
  };
  mcp.setRequestHandler("tasks/get", { params: TaskParams }, (params, ctx) =>
    withinMcpSpan(ctx, {}, async () => {
      declared(ctx, "tasks/get");
      return tasks.get(params.taskId, connectionFor(ctx), toolOf);
    }),
  );
  mcp.setRequestHandler("tasks/cancel", { params: TaskParams }, (params, ctx) =>
    withinMcpSpan(ctx, {}, async () => {
      declared(ctx, "tasks/cancel");
      await tasks.cancel(params.taskId, connectionFor(ctx));
      return {};
    }),
  );
  mcp.setRequestHandler("tasks/update", { params: TaskParams }, (params, ctx) =>
    withinMcpSpan(ctx, {}, async () => {
      declared(ctx, "tasks/update");
      // The SDK lifts a 2026-07-28 request's inputResponses out of its params.
      const responses = (ctx.mcpReq.inputResponses ?? params.inputResponses) as Record<string, unknown> | undefined;
      await tasks.update(params.taskId, responses, connectionFor(ctx));
      return {};
    }),
  );
}

function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
}

/**
 * An MCP server (the SDK's low-level one) whose every call goes through Herald's dispatcher. The
 * SDK builds one per HTTP request and one per stdio connection, for either protocol generation.
 */
export function buildMcpServer(herald: HeraldServer, catalog: McpCatalog, asking: McpAsking, tasks?: McpTasks): TaskAwareServer {
  const mcp = new TaskAwareServer(
    { name: herald.config.name, version: herald.app ? appVersion(herald.app.root) : "0.0.0" },
    {
      capabilities: {
        // The catalog is fixed while a server runs, so no list ever changes.
        tools: {},
        resources: { subscribe: true },
        prompts: {},
        completions: {},
        logging: {},
        ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      },
      ...asking.serverOptions(),
    },
  );

  mcp.setRequestHandler("tools/list", (_request, ctx) =>
    withinMcpSpan(ctx, {}, async () => ({
      tools: [...catalog.tools.values()].map((entry) => entry.definition),
    })),
  );

  mcp.setRequestHandler("tools/call", (request, ctx) => withinMcpSpan(ctx, { tool: request.params.name }, async () => {
    const entry = catalog.tools.get(request.params.name);
    if (!entry) throw invalidParams(`Unknown tool "${request.params.name}"`);
    if (entry.taskSupport && tasks) {
      if (declaresTasks(ctx, mcp.getClientCapabilities())) {
        // The call is the task's creation: validated and through its middleware (rate limits
        // included) as any call, its run queues the job. What its middleware asked the caller
        // before (rounds of input_required) goes to the job with it. A task is no
        // CallToolResult: TaskAwareServer carries it past the SDK's result check.
        const connection = connectionFor(ctx, asking.connectionInput(ctx, entry.registered.name));
        const kinds = askableKinds(ctx, mcp.getClientCapabilities());
        const runInstead = () => tasks.enqueue(entry, request.params.arguments, kinds, answersRead(connection), connection);
        const call = { actionName: entry.registered.name, params: request.params.arguments, ctx, connection, runInstead };
        return runFor<CallToolResult | InputRequiredResult>(herald, call, async (result) => {
          return asking.inputRequired(result, ctx) ?? ((await tasks.created(entry, result, connection)) as CallToolResult);
        });
      }
      if (entry.taskSupport === "required") throw tasksCapabilityRequired(`The tool "${request.params.name}"`);
    }
    const connection = connectionFor(ctx, asking.connectionInput(ctx, entry.registered.name));
    const call = { actionName: entry.registered.name, params: request.params.arguments, ctx, connection, frames: isMcpContent };
    return runFor<CallToolResult | InputRequiredResult>(herald, call, (result) => {
      const questions = asking.inputRequired(result, ctx);
      if (questions) return questions;
      // Where an authorization server can sign the caller in, "not signed in" becomes a 401 (streamable-http.ts).
      const signIn = requestCaller.getStore()?.signIn;
      if (signIn && result.error && NOT_SIGNED_IN.has(result.error.type)) signIn.needed = true;
      return toolResult(result, {
        format: entry.format,
        ...(entry.wrapsResult !== undefined ? { wrapsResult: entry.wrapsResult } : {}),
        signal: ctx.mcpReq.signal,
        connection,
      });
    });
  }));

  mcp.setRequestHandler("resources/list", (_request, ctx) => withinMcpSpan(ctx, {}, async () => ({
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
  })));

  mcp.setRequestHandler("resources/templates/list", (_request, ctx) => withinMcpSpan(ctx, {}, async () => ({
    resourceTemplates: catalog.resources
      .filter((entry) => entry.uriTemplate)
      .map((entry) => ({
        uriTemplate: entry.uriTemplate!,
        name: entry.registered.name,
        mimeType: entry.mimeType,
        ...(entry.registered.action.description ? { description: entry.registered.action.description } : {}),
      })),
  })));

  mcp.setRequestHandler("resources/read", (request, ctx) => withinMcpSpan(ctx, { uri: request.params.uri }, async (): Promise<ReadResourceResult | InputRequiredResult> => {
    const { uri } = request.params;
    const app = catalog.apps.get(uri);
    if (app) {
      const html = typeof app.html === "function" ? await app.html() : app.html;
      return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: html }] };
    }
    const match = catalog.matchResource(uri);
    if (!match) throw invalidParams(`Unknown resource "${uri}"`, { uri });
    const actionName = match.entry.registered.name;
    const connection = connectionFor(ctx, asking.connectionInput(ctx, actionName));
    const call = { actionName, params: match.params, ctx, connection, frames: isResourceBody };
    return runFor<ReadResourceResult | InputRequiredResult>(herald, call, (result) => {
      return asking.inputRequired(result, ctx) ?? resourceResult(result.answer, uri, match.entry.mimeType);
    });
  }));

  // A 2025-era client served statelessly has no stream to receive updates on (docs/mcp.md); a
  // 2026-07-28 client listens with subscriptions/listen, which the SDK's handler answers.
  mcp.setRequestHandler("resources/subscribe", async (request) => {
    if (!catalog.apps.has(request.params.uri) && !catalog.matchResource(request.params.uri)) {
      throw invalidParams(`Unknown resource "${request.params.uri}"`, { uri: request.params.uri });
    }
    return {};
  });
  mcp.setRequestHandler("resources/unsubscribe", async () => ({}));

  mcp.setRequestHandler("prompts/list", (_request, ctx) => withinMcpSpan(ctx, {}, async () => ({
    prompts: [...catalog.prompts.values()].map((entry) => ({
      name: entry.name,
      ...(entry.registered.action.description ? { description: entry.registered.action.description } : {}),
      arguments: entry.arguments,
    })),
  })));

  mcp.setRequestHandler("prompts/get", (request, ctx) => withinMcpSpan(ctx, { prompt: request.params.name }, async (): Promise<GetPromptResult | InputRequiredResult> => {
    const entry = catalog.prompts.get(request.params.name);
    if (!entry) throw invalidParams(`Unknown prompt "${request.params.name}"`);
    const actionName = entry.registered.name;
    const connection = connectionFor(ctx, asking.connectionInput(ctx, actionName));
    const call = { actionName, params: request.params.arguments, ctx, connection, frames: isPromptBody };
    return runFor<GetPromptResult | InputRequiredResult>(herald, call, (result) => {
      return asking.inputRequired(result, ctx) ?? promptResult(result.answer, entry.registered.action.description);
    });
  }));

  if (tasks) serveTasks(mcp, catalog, tasks);

  mcp.setRequestHandler("completion/complete", async (request) => ({ completion: completionsFor(catalog, request.params) }));

  return mcp;
}
