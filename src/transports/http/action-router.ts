import { METHODS } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { fixedRouteKey, pathMatcher, PathMatcher, requestPathKey, RouteParams } from "./route-matcher";

/** Runs one action for a request whose route matched, with the route's params. */
export type ActionCall = (req: Request, res: Response, params: RouteParams) => Promise<void>;

interface Route {
  matches: PathMatcher;
  byMethod: Map<string, ActionCall>;
  /** What `Allow` lists for this route. */
  allowed: readonly string[];
}

interface RouteGroup {
  route: string | RegExp;
  byMethod: Map<string, RegisteredAction>;
}

/** Lower matches first: fixed paths, then `:param` paths, then regular expressions. */
function specificity(route: string | RegExp): number {
  if (route instanceof RegExp) return 2;
  return /[:*{]/.test(route) ? 1 : 0;
}

/** A route as Express matches it: a RegExp without the flags that make `exec` stateful. */
function normalizeRoute(route: string | RegExp): string | RegExp {
  if (route instanceof RegExp) return new RegExp(route.source, route.flags.replace(/[gy]/g, ""));
  return route.startsWith("/") ? route : `/${route}`;
}

function groupByRoute(actions: readonly RegisteredAction[]): RouteGroup[] {
  const groups = new Map<string, RouteGroup>();
  for (const entry of actions) {
    if (!entry.action.web) continue;
    const route = normalizeRoute(entry.action.web.route);
    const key = route instanceof RegExp ? `regexp:${route}` : route;
    const group = groups.get(key) ?? { route, byMethod: new Map() };
    group.byMethod.set(String(entry.action.web.method).toUpperCase(), entry);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => specificity(a.route) - specificity(b.route));
}

function allowedMethods(methods: Iterable<string>): string[] {
  const allowed = new Set(methods);
  if (allowed.has("GET")) allowed.add("HEAD");
  allowed.add("OPTIONS");
  return [...allowed];
}

function namesOf(group: RouteGroup): string {
  return [...group.byMethod.values()].map((entry) => `"${entry.name}"`).join(", ");
}

const NO_PARAMS: RouteParams = Object.freeze({}) as RouteParams;

/** A fixed route is only tried on paths found under its key, which it always matches. */
const matchesFound: PathMatcher = () => NO_PARAMS;

function buildRoute(group: RouteGroup, fixed: boolean, callFor: (entry: RegisteredAction) => ActionCall): Route {
  let matches: PathMatcher;
  try {
    matches = fixed ? matchesFound : pathMatcher(group.route);
  } catch (cause) {
    throw new TypedError({
      message: `The web route ${String(group.route)} of ${namesOf(group)} is invalid: ${(cause as Error).message}`,
      type: ErrorType.SERVER_INITIALIZATION,
      key: "web",
      value: String(group.route),
      cause,
    });
  }
  const byMethod = new Map<string, ActionCall>();
  for (const [method, entry] of group.byMethod) {
    if (!METHODS.includes(method)) {
      throw new TypedError({
        message: `The web method ${method} of "${entry.name}" is not an HTTP method`,
        type: ErrorType.SERVER_INITIALIZATION,
        key: "web",
        value: method,
      });
    }
    byMethod.set(method, callFor(entry));
  }
  return { matches, byMethod, allowed: allowedMethods(group.byMethod.keys()) };
}

/** The path beneath the prefix, matched as Express mounts a path (case-insensitive, whole segments); undefined outside it. */
function beneathPrefix(path: string, prefix: string): string | undefined {
  if (path.length < prefix.length || path.slice(0, prefix.length).toLowerCase() !== prefix) return undefined;
  if (path.length === prefix.length) return "/";
  return path[prefix.length] === "/" ? path.slice(prefix.length) : undefined;
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
 * Serves every web route of the registry beneath the prefix, as one middleware: fixed routes are
 * found in a Map, the others tried in order, each by the matcher Express's router would use. The
 * first route that matches the path and has an action for the method (`GET`'s for `HEAD`) runs
 * it; routes that match the path but not the method make a 405 (or, for `OPTIONS`, a 204) with
 * `Allow`; a path no route matches is 404 CONNECTION_ACTION_NOT_FOUND. Requests outside the
 * prefix go on to the next middleware.
 */
export function actionRouter(
  prefix: string,
  actions: readonly RegisteredAction[],
  callFor: (entry: RegisteredAction) => ActionCall,
): RequestHandler {
  const fixed = new Map<string, Route[]>();
  const others: Route[] = [];
  for (const group of groupByRoute(actions)) {
    const key = fixedRouteKey(group.route);
    const route = buildRoute(group, key !== undefined, callFor);
    if (key === undefined) others.push(route);
    else fixed.set(key, [...(fixed.get(key) ?? []), route]);
  }
  const lowerPrefix = prefix.toLowerCase();
  return (req, res, next) => {
    const path = beneathPrefix(req.path, lowerPrefix);
    if (path === undefined) return next();
    const candidates = fixed.get(requestPathKey(path));
    const served = tryRoutes(candidates, path, req, res) ?? tryRoutes(others, path, req, res);
    if (served) return served;
    notServed(req, path, allowedOn(path, [candidates, others]), res);
  };
}

/** Runs the first route that matches the path and serves the method. */
function tryRoutes(routes: readonly Route[] | undefined, path: string, req: Request, res: Response): Promise<void> | undefined {
  if (!routes) return undefined;
  const method = req.method;
  for (const route of routes) {
    const params = route.matches(path);
    if (!params) continue;
    const call = route.byMethod.get(method) ?? (method === "HEAD" ? route.byMethod.get("GET") : undefined);
    if (call) return call(req, res, params);
  }
  return undefined;
}

/** What the routes matching the path allow, for the 405 or `OPTIONS` answer; worked out only then. */
function allowedOn(path: string, routeLists: readonly (readonly Route[] | undefined)[]): Set<string> {
  const allowed = new Set<string>();
  for (const routes of routeLists) {
    for (const route of routes ?? []) {
      if (route.matches(path)) for (const name of route.allowed) allowed.add(name);
    }
  }
  return allowed;
}
