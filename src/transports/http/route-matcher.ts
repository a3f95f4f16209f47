import { match } from "path-to-regexp";
import { ErrorType, TypedError } from "../../core/errors";

export type RouteParams = Record<string, string | string[]>;

/** The params of a path the route matches, or undefined when it does not match. */
export type PathMatcher = (path: string) => RouteParams | undefined;

/** A route of plain segments, which a lookup by its normalized text can match instead of a RegExp. */
const FIXED_ROUTE = /^(?:\/[\w.~-]+)+\/*$/;

/** Matched groups of a RegExp route, as Express's router names them: named, or numbered from 0. */
const MATCHING_GROUP = /\((?:\?<(.*?)>)?(?!\?)/g;

export function decodeParam(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new TypedError({
      message: `The path param "${value}" is not valid percent-encoding`,
      type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
      key: "path",
      value,
    });
  }
}

/**
 * The key a fixed route is found under, or undefined for a route that needs a matcher. Matching
 * ignores case and a trailing slash, as Express does.
 */
export function fixedRouteKey(route: string | RegExp): string | undefined {
  if (route instanceof RegExp || !FIXED_ROUTE.test(route)) return undefined;
  return route.replace(/\/+$/, "").toLowerCase();
}

/** The key to look a request path up under among fixed routes: one trailing slash is ignored. */
export function requestPathKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith("/") ? lower.slice(0, -1) : lower;
}

function regExpMatcher(route: RegExp): PathMatcher {
  const names = [...route.source.matchAll(MATCHING_GROUP)].map((group, index, all) => {
    const unnamedBefore = all.slice(0, index).filter((earlier) => !earlier[1]).length;
    return group[1] || String(unnamedBefore);
  });
  return (path) => {
    const found = route.exec(path);
    if (!found) return undefined;
    const params: RouteParams = {};
    for (let index = 1; index < found.length; index += 1) {
      const value = found[index];
      if (value !== undefined) params[names[index - 1]!] = decodeParam(value);
    }
    return params;
  };
}

/**
 * Matches paths as Express 5's router does: a string route through path-to-regexp
 * (case-insensitive, one optional trailing slash, params percent-decoded), a RegExp as it is.
 * Throws path-to-regexp's error for a string route it cannot parse.
 */
export function pathMatcher(route: string | RegExp): PathMatcher {
  if (route instanceof RegExp) return regExpMatcher(route);
  const loose = route === "/" ? route : route.replace(/\/+$/, "");
  const matches = match<RouteParams>(loose, { sensitive: false, end: true, trailing: true, decode: decodeParam });
  return (path) => {
    const found = matches(path);
    return found ? found.params : undefined;
  };
}
