import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { ErrorType, TypedError } from "../../core/errors";
import type { RouteParams } from "./route-matcher";
import type { RouteTable, RouteTarget } from "./route-table";

/**
 * Runs one action for a request whose route matched: the route's params, the parsed query, the
 * request's id. Node's own request and response, so that both HTTP paths run the same call.
 */
export type ActionCall = (req: IncomingMessage, res: ServerResponse, routeParams: RouteParams, query: unknown, requestId: string) => Promise<void>;

export interface ActionTarget extends RouteTarget {
  readonly call: ActionCall;
}

function notServed(req: Request, path: string, allowed: ReadonlySet<string>, res: Response): void {
  const where = req.originalUrl.split("?")[0];
  if (allowed.size === 0) {
    throw new TypedError({
      message: `No action is served at ${req.method} ${where}`,
      type: ErrorType.CONNECTION_ACTION_NOT_FOUND,
      key: "path",
      value: path,
    });
  }
  const allow = [...allowed].join(", ");
  res.setHeader("Allow", allow);
  if (req.method === "OPTIONS") return void res.status(204).end();
  throw new TypedError({
    message: `${req.method} is not allowed on ${where}; allowed: ${allow}`,
    type: ErrorType.CONNECTION_METHOD_NOT_ALLOWED,
    key: "method",
    value: req.method,
  });
}

/**
 * Serves the route table's actions beneath the prefix, as one Express middleware: a route that
 * matches the path and has an action for the method runs it; routes that match the path but not
 * the method make a 405 (or, for `OPTIONS`, a 204) with `Allow`; a path no route matches is 404
 * CONNECTION_ACTION_NOT_FOUND. Requests outside the prefix go on to the next middleware.
 */
export function actionRouter(routes: RouteTable<ActionTarget>): RequestHandler {
  return (req, res, next) => {
    const path = routes.beneathPrefix(req.path);
    if (path === undefined) return next();
    const found = routes.find(req.method, path);
    if (found) return found.target.call(req, res, found.params, req.query, res.locals.requestId as string);
    notServed(req, path, routes.allowedOn(path), res);
  };
}
