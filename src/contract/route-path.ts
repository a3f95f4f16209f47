import { parse, type Token } from "path-to-regexp";

/** One OpenAPI path an action answers on, relative to the API prefix. */
export interface RoutePath {
  /** An OpenAPI path template such as `/user/{id}`. */
  template: string;
  params: RouteParam[];
}

export interface RouteParam {
  name: string;
  /** A `*name` wildcard, which may span several path segments. */
  wildcard?: boolean;
  /** For a named group of a RegExp route: the pattern the value must match. */
  pattern?: string;
}

/** The result of documenting a route: its paths, or why it cannot be written as one. */
export type RouteDocumentation = { paths: RoutePath[] } | { unlisted: string };

/**
 * Turns a route into OpenAPI path templates. A string route is read as Express 5's router reads
 * it (path-to-regexp): `:id` and `*path` become `{id}` and `{path}`, and each optional `{…}` group
 * yields a path with and one without it (fullest first). A RegExp route is documented when it is
 * anchored (`^…$`) and made of literal text and named groups, such as
 * `/^\/files\/(?<name>[\w.-]+)$/`; any other RegExp cannot be written as an OpenAPI path and is
 * listed with the reason instead.
 */
export function documentRoute(route: string | RegExp): RouteDocumentation {
  if (route instanceof RegExp) return regexpRoute(route);
  let tokens: Token[];
  try {
    tokens = parse(route).tokens;
  } catch (error) {
    return { unlisted: `${route}: ${(error as Error).message}` };
  }
  return {
    paths: alternatives(tokens).map(({ template, params }) => ({ template: template.startsWith("/") ? template : `/${template}`, params })),
  };
}

/**
 * Every path the tokens match, as a template and its params: with each optional group and
 * without it, the fullest first (the first group varies slowest).
 */
function alternatives(tokens: readonly Token[]): RoutePath[] {
  const index = tokens.findIndex((token) => token.type === "group");
  if (index === -1) return [tokens.map((token) => pieceOf(token as Exclude<Token, { type: "group" }>)).reduce(joined, { template: "", params: [] })];
  const [before] = alternatives(tokens.slice(0, index));
  const group = tokens[index] as Extract<Token, { type: "group" }>;
  const rest = alternatives(tokens.slice(index + 1));
  const withGroup = alternatives(group.tokens).flatMap((part) => rest.map((tail) => joined(joined(before!, part), tail)));
  return [...withGroup, ...rest.map((tail) => joined(before!, tail))];
}

function pieceOf(token: Exclude<Token, { type: "group" }>): RoutePath {
  if (token.type === "text") return { template: token.value, params: [] };
  return { template: `{${token.name}}`, params: [token.type === "wildcard" ? { name: token.name, wildcard: true } : { name: token.name }] };
}

function joined(head: RoutePath, tail: RoutePath): RoutePath {
  return { template: head.template + tail.template, params: [...head.params, ...tail.params] };
}

const LITERAL = /[A-Za-z0-9/_~-]/;
const ESCAPED_LITERAL = /[/.\-_~]/;

function regexpRoute(route: RegExp): RouteDocumentation {
  const unlisted = (reason: string) => ({ unlisted: `${String(route)}: ${reason}` });
  let source = route.source;
  if (!source.startsWith("^") || !source.endsWith("$") || source.endsWith("\\$")) return unlisted("only a RegExp anchored with ^ and $ can be a path");
  source = source.slice(1, -1).replace(/\\?\/\?$/, "");
  let template = "";
  const params: RouteParam[] = [];
  for (let index = 0; index < source.length; ) {
    const char = source[index]!;
    if (char === "\\" && ESCAPED_LITERAL.test(source[index + 1] ?? "")) {
      template += source[index + 1];
      index += 2;
    } else if (source.startsWith("(?<", index) && source[index + 3] !== "=" && source[index + 3] !== "!") {
      const group = namedGroup(source, index);
      if (!group) return unlisted("a named group could not be read");
      params.push({ name: group.name, pattern: `^(?:${group.body})$` });
      template += `{${group.name}}`;
      index = group.end;
    } else if (LITERAL.test(char)) {
      template += char;
      index += 1;
    } else {
      return unlisted(`"${char}" outside a named group has no OpenAPI path equivalent`);
    }
  }
  return { paths: [{ template: template.startsWith("/") ? template : `/${template}`, params }] };
}

/** The named group opening at `start`, its body up to the matching parenthesis. */
function namedGroup(source: string, start: number): { name: string; body: string; end: number } | undefined {
  const nameEnd = source.indexOf(">", start);
  const name = source.slice(start + 3, nameEnd);
  if (nameEnd === -1 || !/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
  let depth = 1;
  let inClass = false;
  for (let index = nameEnd + 1; index < source.length; index++) {
    const char = source[index];
    if (char === "\\") index++;
    else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) {
      const body = source.slice(nameEnd + 1, index);
      return body.includes("(?<") ? undefined : { name, body, end: index + 1 };
    }
  }
  return undefined;
}
