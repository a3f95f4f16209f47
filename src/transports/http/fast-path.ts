import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { HttpMount } from "../../core/ports/http-mount";
import type { ActionTarget } from "./action-router";
import type { CrossSiteCheck } from "./cross-site";
import { answerFailure, type FailureOptions } from "./error-handler";
import { mountServing } from "./mounts";
import type { RequestStart } from "./request-start";
import type { RouteTable } from "./route-table";

/** A route target, and whether the fast path may run it: an action whose inputs take files reads multipart bodies through Express. */
export interface FastActionTarget extends ActionTarget {
  readonly fastPath: boolean;
}

export interface FastPathContext {
  routes: RouteTable<FastActionTarget>;
  /** server.httpMounts: read at each request, as mounts register while the server initializes. */
  mounts: readonly HttpMount[];
  corsOrigins: readonly string[];
  crossSite: CrossSiteCheck;
  start: RequestStart;
  failure: FailureOptions;
}

/** Characters after which Express reads a URL with the full URL parser (parseurl's fast parse gives up), rather than by splitting at `?`. */
const NOT_SPLIT_PARSED = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * Answers, straight from node:http, a request for an action route that needs nothing of
 * Express, and says whether it did; every other request is left untouched for the Express
 * application: paths outside the API prefix or beneath a mount, `OPTIONS`, a request CORS would
 * answer or decorate (an `Origin` with HTTP_CORS_ORIGINS set, any request with `*`), a path no
 * route serves with the method (404, 405), a path param that is not valid percent-encoding,
 * an action that reads multipart bodies, a URL Express parses otherwise. What it runs is what
 * Express runs for the same request: the same start (tracking, id, security headers), the same
 * cross-site check, the same action call and the same error answers.
 */
export function fastPath(context: FastPathContext): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { routes, mounts, crossSite, start, failure } = context;
  const corsDecorates = context.corsOrigins.includes("*");
  const corsConfigured = context.corsOrigins.length > 0;
  return (req, res) => {
    const url = req.url ?? "";
    const method = req.method ?? "";
    if (url.charCodeAt(0) !== 47 /* "/" */ || method === "OPTIONS" || NOT_SPLIT_PARSED.test(url)) return false;
    if (corsConfigured && (corsDecorates || req.headers.origin !== undefined)) return false;
    const queryAt = url.indexOf("?");
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    const path = routes.beneathPrefix(pathname);
    if (path === undefined || (mounts.length > 0 && mountServing(mounts, pathname))) return false;
    let found;
    try {
      found = routes.find(method, path);
    } catch {
      return false;
    }
    if (!found?.target.fastPath) return false;
    const requestId = start(req, res);
    if (requestId === undefined) return true;
    const fail = (thrown: unknown) => answerFailure(thrown || new Error("Rejected promise"), res, { path: pathname, requestId }, failure);
    try {
      crossSite(req);
      // Express's "simple" query parser is this same function.
      const query = parseQuery(queryAt === -1 ? "" : url.slice(queryAt + 1));
      found.target.call(req, res, found.params, query, requestId).catch(fail);
    } catch (thrown) {
      fail(thrown);
    }
    return true;
  };
}
