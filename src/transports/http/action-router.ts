import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorType, TypedError } from "../../core/errors";
import { releaseHeldHeaders } from "./held-headers";
import type { RouteParams } from "./route-matcher";
import type { RouteTarget } from "./route-table";

/** Runs one action for a request whose route matched: the route's params, the parsed query, the request's id. */
export type ActionCall = (req: IncomingMessage, res: ServerResponse, routeParams: RouteParams, query: unknown, requestId: string) => Promise<void>;

export interface ActionTarget extends RouteTarget {
  readonly call: ActionCall;
  /** The route's template, the API prefix included (`/api/users/:id`): a trace's `http.route`. */
  readonly route: string;
}

/**
 * The answer for a path beneath the prefix that no route serves with the request's method: 404
 * CONNECTION_ACTION_NOT_FOUND when no route matches the path; else `Allow` with what the matching
 * routes serve, and 405 CONNECTION_METHOD_NOT_ALLOWED, or `204` for `OPTIONS`. The errors are
 * thrown, for the error answer; the `204` is sent.
 */
export function answerUnrouted(req: IncomingMessage, res: ServerResponse, path: string, allowed: ReadonlySet<string>): void {
  const where = (req.url ?? "").split("?")[0];
  if (allowed.size === 0) {
    throw new TypedError({
      message: `No action is served at ${req.method} ${where}`,
      type: ErrorType.CONNECTION_ACTION_NOT_FOUND,
      key: "path",
      value: path,
    });
  }
  const allow = [...allowed].join(", ");
  releaseHeldHeaders(res);
  res.setHeader("Allow", allow);
  if (req.method === "OPTIONS") {
    res.statusCode = 204;
    return void res.end();
  }
  throw new TypedError({
    message: `${req.method} is not allowed on ${where}; allowed: ${allow}`,
    type: ErrorType.CONNECTION_METHOD_NOT_ALLOWED,
    key: "method",
    value: req.method,
  });
}
