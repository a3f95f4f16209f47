import { METHODS } from "node:http";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { checkRouteParamsDeclared } from "./route-param-check";
import { fixedRouteKey, pathMatcher, PathMatcher, requestPathKey, RouteParams } from "./route-matcher";

/** What a route runs for one method: made once per action at boot by the caller of `compileRoutes`. */
export interface RouteTarget {
  readonly entry: RegisteredAction;
}

interface Route<T extends RouteTarget> {
  matches: PathMatcher;
  byMethod: Map<string, T>;
  /** What `Allow` lists for this route. */
  allowed: readonly string[];
}

interface RouteGroup {
  route: string | RegExp;
  byMethod: Map<string, RegisteredAction>;
}

export interface RouteFound<T extends RouteTarget> {
  target: T;
  params: RouteParams;
}

/** Every web route of the registry beneath the API prefix, compiled once at boot; the action path looks requests up in it. */
export interface RouteTable<T extends RouteTarget> {
  /** The path beneath the prefix, matched as Express mounts a path (case-insensitive, whole segments); undefined outside it. */
  beneathPrefix(path: string): string | undefined;
  /**
   * The first route that matches the path (beneath the prefix) and serves the method (`GET`'s
   * for `HEAD`), with the path's params. Throws CONNECTION_ACTION_PARAM_FORMATTING for a param
   * that is not valid percent-encoding.
   */
  find(method: string, path: string): RouteFound<T> | undefined;
  /** What the routes matching the path allow, for the 405 or `OPTIONS` answer. */
  allowedOn(path: string): Set<string>;
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

function buildRoute<T extends RouteTarget>(group: RouteGroup, fixed: boolean, targetFor: (entry: RegisteredAction) => T): Route<T> {
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
  const byMethod = new Map<string, T>();
  for (const [method, entry] of group.byMethod) {
    if (!METHODS.includes(method)) {
      throw new TypedError({
        message: `The web method ${method} of "${entry.name}" is not an HTTP method`,
        type: ErrorType.SERVER_INITIALIZATION,
        key: "web",
        value: method,
      });
    }
    checkRouteParamsDeclared(entry, group.route);
    byMethod.set(method, targetFor(entry));
  }
  return { matches, byMethod, allowed: allowedMethods(group.byMethod.keys()) };
}

function findIn<T extends RouteTarget>(routes: readonly Route<T>[] | undefined, method: string, path: string): RouteFound<T> | undefined {
  if (!routes) return undefined;
  for (const route of routes) {
    const params = route.matches(path);
    if (!params) continue;
    const target = route.byMethod.get(method) ?? (method === "HEAD" ? route.byMethod.get("GET") : undefined);
    if (target) return { target, params };
  }
  return undefined;
}

/**
 * Compiles the web routes of `actions`: fixed routes are found in a Map, the others tried in
 * order, each by the matcher Express's router would use. Throws SERVER_INITIALIZATION for a
 * route or method Express could not serve, and for a route param the action's inputs would drop.
 */
export function compileRoutes<T extends RouteTarget>(
  prefix: string,
  actions: readonly RegisteredAction[],
  targetFor: (entry: RegisteredAction) => T,
): RouteTable<T> {
  const fixed = new Map<string, Route<T>[]>();
  const others: Route<T>[] = [];
  for (const group of groupByRoute(actions)) {
    const key = fixedRouteKey(group.route);
    const route = buildRoute(group, key !== undefined, targetFor);
    if (key === undefined) others.push(route);
    else fixed.set(key, [...(fixed.get(key) ?? []), route]);
  }
  const lowerPrefix = prefix.toLowerCase();
  return {
    beneathPrefix(path) {
      if (path.length < lowerPrefix.length || path.slice(0, lowerPrefix.length).toLowerCase() !== lowerPrefix) return undefined;
      if (path.length === lowerPrefix.length) return "/";
      return path[lowerPrefix.length] === "/" ? path.slice(lowerPrefix.length) : undefined;
    },
    find(method, path) {
      return findIn(fixed.get(requestPathKey(path)), method, path) ?? findIn(others, method, path);
    },
    allowedOn(path) {
      const allowed = new Set<string>();
      for (const routes of [fixed.get(requestPathKey(path)), others]) {
        for (const route of routes ?? []) {
          if (route.matches(path)) for (const name of route.allowed) allowed.add(name);
        }
      }
      return allowed;
    },
  };
}
