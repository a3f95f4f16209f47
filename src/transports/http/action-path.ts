import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { HttpMount } from "../../core/ports/http-mount";
import { isTracing } from "../../core/tracing";
import type { HttpAccessLog } from "./access-log";
import { type ActionTarget, answerUnrouted } from "./action-router";
import type { ActionCors } from "./cors";
import type { CrossSiteCheck } from "./cross-site";
import { answerFailure, type FailureOptions } from "./error-handler";
import { HttpServerSpan } from "./http-span";
import { mountServing } from "./mounts";
import type { RequestStart } from "./request-start";
import { requestTarget } from "./request-target";
import type { RouteTable } from "./route-table";

export interface ActionPathContext {
  routes: RouteTable<ActionTarget>;
  /** server.httpMounts: read at each request, as mounts register while the server initializes. */
  mounts: readonly HttpMount[];
  /** Undefined when no origin is configured: CORS then adds nothing to any response. */
  cors: ActionCors | undefined;
  crossSite: CrossSiteCheck;
  start: RequestStart;
  failure: FailureOptions;
  /** Where requests that are not action calls (404, 405, preflights, bad bodies) get their line. */
  access: HttpAccessLog;
}

/**
 * Answers every request beneath the API prefix, straight from node:http, and says whether it
 * took the request; a path outside the prefix, or beneath a mount, is left untouched for the
 * Express application (mounts, herald/client's modules, static files, the 404). In order: the
 * request's start (tracking, id, security headers, held for the answer), CORS (its preflight
 * answered here), the cross-site check, the route: the action's call, or the 404, 405 or
 * `OPTIONS` answer (`answerUnrouted`). What throws gets the error answer. What is not an action
 * call gets an access line; a call's line is the dispatcher's.
 */
export function actionPath(context: ActionPathContext): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { routes, mounts, start, failure, access } = context;
  return (req, res) => {
    const target = requestTarget(req);
    if (target === undefined) return false;
    const { pathname } = target;
    const path = routes.beneathPrefix(pathname);
    if (path === undefined || (mounts.length > 0 && mountServing(mounts, pathname))) return false;
    const started = performance.now();
    const requestId = start(req, res);
    if (requestId === undefined) return true;
    let watched = false;
    const watch = () => {
      if (watched) return;
      watched = true;
      access.watch(req, res, requestId, started);
    };
    const fail = (thrown: unknown) => {
      // A call that failed past the dispatcher, which logged it, gets no access line (see markActionCall).
      watch();
      answerFailure(thrown || new Error("Rejected promise"), res, { path: pathname, requestId }, failure);
    };
    const span = isTracing() ? new HttpServerSpan(req, res, pathname) : undefined;
    if (span) span.within(() => routeRequest(req, res, context, { path, query: target.query, requestId }, { fail, watch }, span));
    else routeRequest(req, res, context, { path, query: target.query, requestId }, { fail, watch }, undefined);
    return true;
  };
}

/** CORS, the cross-site check, then the route's call, or the 404, 405 or `OPTIONS` answer, which get an access line. */
function routeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  { routes, cors, crossSite }: ActionPathContext,
  { path, query, requestId }: { path: string; query: string; requestId: string },
  { fail, watch }: { fail: (thrown: unknown) => void; watch: () => void },
  span: HttpServerSpan | undefined,
): void {
  try {
    if (cors?.(req, res)) return watch();
    crossSite(req);
    const found = routes.find(req.method ?? "", path);
    if (!found) {
      watch();
      return answerUnrouted(req, res, path, routes.allowedOn(path));
    }
    span?.routed(found.target.route);
    // Express's "simple" query parser, which mounts' `req.query` still goes through, is this same function.
    found.target.call(req, res, found.params, parseQuery(query), requestId).catch(fail);
  } catch (thrown) {
    fail(thrown);
  }
}
