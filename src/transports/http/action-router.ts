import { RequestHandler, Router } from "express";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";

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

/**
 * Records which methods a route that matched the path allows; when no route served the method,
 * the request ends with 405 (or, for OPTIONS, 204) and an `Allow` header listing them.
 */
function collectAllowed(methods: readonly string[]): RequestHandler {
  return (_req, res, next) => {
    const allowed: Set<string> = (res.locals.allowedMethods ??= new Set<string>());
    for (const method of methods) allowed.add(method);
    next();
  };
}

const unmatched: RequestHandler = (req, res) => {
  const allowed = res.locals.allowedMethods as Set<string> | undefined;
  if (!allowed) {
    throw new TypedError({
      message: `No action is served at ${req.method} ${req.originalUrl.split("?")[0]}`,
      type: ErrorType.CONNECTION_ACTION_NOT_FOUND,
      key: "path",
      value: req.path,
    });
  }
  const allow = [...allowed].join(", ");
  res.setHeader("Allow", allow);
  if (req.method === "OPTIONS") return void res.status(204).end();
  throw new TypedError({
    message: `${req.method} is not allowed on ${req.originalUrl.split("?")[0]}; allowed: ${allow}`,
    type: ErrorType.CONNECTION_METHOD_NOT_ALLOWED,
    key: "method",
    value: req.method,
  });
};

/**
 * One Express route per web route of the registry, each method handled by its action. Paths
 * are matched beneath the prefix the router is mounted at.
 */
export function actionRouter(
  actions: readonly RegisteredAction[],
  handlerFor: (entry: RegisteredAction) => RequestHandler,
): Router {
  const router = Router();
  for (const group of groupByRoute(actions)) {
    const names = [...group.byMethod.values()].map((entry) => `"${entry.name}"`).join(", ");
    let route: ReturnType<Router["route"]>;
    try {
      route = router.route(group.route as string);
    } catch (cause) {
      throw new TypedError({
        message: `The web route ${String(group.route)} of ${names} is invalid: ${(cause as Error).message}`,
        type: ErrorType.SERVER_INITIALIZATION,
        key: "web",
        value: String(group.route),
        cause,
      });
    }
    for (const [method, entry] of group.byMethod) {
      const register = (route as unknown as Record<string, unknown>)[method.toLowerCase()];
      if (typeof register !== "function") {
        throw new TypedError({
          message: `The web method ${method} of "${entry.name}" is not an HTTP method`,
          type: ErrorType.SERVER_INITIALIZATION,
          key: "web",
          value: method,
        });
      }
      register.call(route, handlerFor(entry));
    }
    route.all(collectAllowed(allowedMethods(group.byMethod.keys())));
  }
  router.use(unmatched);
  return router;
}
