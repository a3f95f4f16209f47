/** How one action is called over HTTP, as the server's `<prefix>/routes.json` lists it. */
export interface ClientRoute {
  method: string;
  paths: { template: string; params: string[] }[];
}

/** The URL, method and body of one call: path params fill the route, the rest go in the query or the body. */
export interface HttpRequestPlan {
  url: string;
  method: string;
  /** The JSON body, or undefined to send none. */
  body: string | undefined;
}

/** Methods whose params travel in the query string: a browser's fetch cannot send them a body. */
const QUERY_METHODS = new Set(["GET", "HEAD"]);

/** Plans the request of a call to `action` on the server at `origin`, whose actions are under `prefix` (`/api`, or `` for none). */
export function planHttpRequest(action: string, route: ClientRoute, origin: string, prefix: string, params: Record<string, unknown>): HttpRequestPlan {
  const filled = (name: string) => params[name] !== undefined && params[name] !== null;
  const path = route.paths.find((candidate) => candidate.params.every(filled));
  if (!path) {
    const needed = route.paths.at(-1)?.params.filter((name) => !filled(name)) ?? [];
    throw new TypeError(`${action}: its route needs the param(s) ${needed.join(", ")}`);
  }
  const inPath = new Set(path.params);
  const pathname = path.template.replace(/\{([^}]+)\}/g, (_match, name: string) => pathSegment(action, name, params[name]));
  const rest = Object.entries(params).filter(([name, value]) => !inPath.has(name) && value !== undefined);
  // The route "/" is the prefix itself, as the server routes it.
  const url = `${origin}${prefix}${pathname === "/" && prefix ? "" : pathname}`;
  if (QUERY_METHODS.has(route.method)) {
    const query = queryString(action, rest);
    return { url: query ? `${url}?${query}` : url, method: route.method, body: undefined };
  }
  return { url, method: route.method, body: rest.length ? JSON.stringify(Object.fromEntries(rest)) : undefined };
}

function pathSegment(action: string, name: string, value: unknown): string {
  // A wildcard's value spans segments: given as an array (as the server hands it to the action)
  // or as text, whose slashes stay separators.
  const segments = Array.isArray(value) ? value.map((item) => scalarText(action, name, item)) : scalarText(action, name, value).split("/");
  return segments.map(encodeURIComponent).join("/");
}

function queryString(action: string, entries: [string, unknown][]): string {
  const query = new URLSearchParams();
  for (const [name, value] of entries) {
    if (Array.isArray(value)) for (const item of value) query.append(name, scalarText(action, name, item));
    else query.append(name, scalarText(action, name, value));
  }
  return query.toString();
}

/** A param as text in a path or a query string, which hold only text. */
function scalarText(action: string, name: string, value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  throw new TypeError(
    `${action}: the param "${name}" is ${value === null ? "null" : typeof value}, but it travels in the URL, which holds only strings, numbers, booleans, dates and arrays of them`,
  );
}
