import { parse, type Token } from "path-to-regexp";

/** A named param of a web route. */
export interface RouteParam {
  name: string;
  /** `*name`: the path segments it matched, as an array. */
  wildcard: boolean;
  /** Inside an optional `{…}` group: absent from the paths that leave the group out. */
  optional: boolean;
}

function paramsOf(tokens: readonly Token[], optional: boolean): RouteParam[] {
  return tokens.flatMap((token): RouteParam[] => {
    if (token.type === "param" || token.type === "wildcard") return [{ name: token.name, wildcard: token.type === "wildcard", optional }];
    return token.type === "group" ? paramsOf(token.tokens, true) : [];
  });
}

/**
 * The named params of a route, read as Express 5's router reads it: `:name` and `*name` of a
 * string route (through path-to-regexp, which throws for a route it cannot parse), `(?<name>…)`
 * of a RegExp. A RegExp's unnamed groups have no name to give.
 */
export function routeParams(route: string | RegExp): RouteParam[] {
  if (route instanceof RegExp) {
    return [...route.source.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)].map((group) => ({ name: group[1]!, wildcard: false, optional: false }));
  }
  return paramsOf(parse(route).tokens, false);
}
