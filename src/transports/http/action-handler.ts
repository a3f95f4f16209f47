import type { ServerResponse } from "node:http";
import { markActionCall } from "../../core/access-log";
import { Connection, responseHeadersIfSet, sessionIfOpened } from "../../core/connection";
import { CONNECTION_TYPE } from "../../core/constants";
import type { RegisteredAction } from "../../core/registry";
import type { HeraldServer } from "../../core/server";
import { Session } from "../../sessions/session";
import { SessionManager } from "../../sessions/session-manager";
import type { ActionCall } from "./action-router";
import { BodyLimits, bodyReaderFor } from "./body";
import { setCacheControl } from "./held-headers";
import { idempotencyKeyOf, REPLAYED_HEADER } from "./idempotency-key";
import { mergeParams } from "./params";
import type { RequestOrigin } from "./request-origin";
import type { RequestTracker } from "./request-tracker";
import { isWebResponse, writeResult } from "./response-writer";

export interface ActionHandlerContext {
  server: HeraldServer;
  bodyLimits: BodyLimits;
  tracker: RequestTracker;
  origin: RequestOrigin;
}

/** Appends a `Set-Cookie` to those already set, as Express's `res.append` does. */
function appendCookie(res: ServerResponse, header: string): void {
  const before = res.getHeader("Set-Cookie");
  if (before === undefined) res.setHeader("Set-Cookie", header);
  else res.setHeader("Set-Cookie", Array.isArray(before) ? [...before, header] : [String(before), header]);
}

function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, String(headers[name]));
}

function hasAny(headers: Record<string, string>): boolean {
  for (const _ in headers) return true;
  return false;
}

/**
 * Parses one HTTP request into a call of the action, runs it through the dispatcher, writes the
 * result. Only the dispatcher is always awaited: a request without a body or session cookie, and
 * a small JSON answer, are handled at once.
 */
export function actionHandler(entry: RegisteredAction, context: ActionHandlerContext): ActionCall {
  const { server, tracker, origin } = context;
  const readBody = bodyReaderFor(entry.action.inputs, context.bodyLimits);
  const { paramsBounds } = server.config;
  const sessions = server.container.resolve(SessionManager);
  const logger = server.logger;
  // A request without a cookie has an anonymous session, made only if the action or a middleware reads it.
  const anonymousSession = () => sessions.anonymous();
  return async (req, res, routeParams, query, requestId) => {
    // An answer may depend on the session or the caller: no cache keeps it, unless the action says otherwise (connection.responseHeaders).
    setCacheControl(res, "no-store");
    const read = readBody(req, res);
    const body = read instanceof Promise ? await read : read;
    const params = mergeParams(paramsBounds, routeParams, query, body.fields, body.files);
    const cookieHeader = req.headers.cookie;
    const found = cookieHeader === undefined ? undefined : sessions.fromCookieHeader(cookieHeader);
    const presented = found instanceof Promise ? await found : found;
    const connection = new Connection({
      type: CONNECTION_TYPE.web,
      remoteAddress: origin.address(req) || undefined,
      requestId,
      ...(presented ? { session: presented } : { openSession: anonymousSession }),
      incomingHeaders: req.headers,
    });
    const controller = tracker.controller(res);
    markActionCall(res);
    const idempotencyKey = idempotencyKeyOf(req);
    const result = await server.dispatcher.run(
      entry.name,
      params,
      connection,
      idempotencyKey === undefined ? { controller, frames: isWebResponse } : { controller, frames: isWebResponse, idempotencyKey },
    );
    if (result.replayed && !res.headersSent) res.setHeader(REPLAYED_HEADER, "true");
    const session = presented ?? sessionIfOpened(connection);
    const cookie = session instanceof Session ? sessions.cookieChange(session) : undefined;
    if (cookie && cookie.kind !== "none" && !res.headersSent) appendCookie(res, cookie.header);
    const responseHeaders = responseHeadersIfSet(connection);
    if (responseHeaders && hasAny(responseHeaders) && !res.headersSent && result.answer.kind !== "framed") setHeaders(res, responseHeaders);
    const writing = writeResult(res, result, {
      signal: controller.signal,
      logger,
      onStream: () => tracker.streaming(res),
    });
    if (writing) await writing;
  };
}
