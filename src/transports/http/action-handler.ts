import type { RequestHandler } from "express";
import { Connection, flattenHeaders } from "../../core/connection";
import { CONNECTION_TYPE } from "../../core/constants";
import type { RegisteredAction } from "../../core/registry";
import type { HeraldServer } from "../../core/server";
import type { BodyReader } from "./body";
import { mergeParams } from "./params";
import type { RequestTracker } from "./request-tracker";
import { writeResult } from "./response-writer";
import { SessionManager } from "../../sessions/session-manager";


export interface ActionHandlerContext {
  server: HeraldServer;
  readBody: BodyReader;
  tracker: RequestTracker;
}

/** Parses one HTTP request into a call of the action, runs it through the dispatcher, writes the result. */
export function actionHandler(entry: RegisteredAction, context: ActionHandlerContext): RequestHandler {
  const { server, readBody, tracker } = context;
  const sessions = server.container.resolve(SessionManager);
  return async (req, res) => {
    const body = await readBody(req, res);
    const params = mergeParams(req.params, req.query, body.fields, body.files);
    const session = await sessions.fromCookieHeader(req.headers.cookie);
    const connection = new Connection({
      type: CONNECTION_TYPE.web,
      ...(req.ip ? { remoteAddress: req.ip } : {}),
      requestId: res.locals.requestId as string,
      session,
      headers: flattenHeaders(req.headers),
    });
    const signal = res.locals.signal as AbortSignal;
    const result = await server.dispatcher.run(entry.name, params, connection, { signal });
    const cookie = sessions.cookieChange(session);
    if (cookie.kind !== "none" && !res.headersSent) res.append("Set-Cookie", cookie.header);
    if (!res.headersSent && !(result.response instanceof Response)) res.set(connection.responseHeaders);
    await writeResult(res, result, {
      signal,
      production: server.config.production,
      logger: server.logger,
      onStream: () => tracker.streaming(res),
    });
  };
}
