import type { IncomingMessage } from "node:http";
import parseurl from "parseurl";

/** A request's path and query string, as Express's router and `req.query` read them. */
export interface RequestTarget {
  pathname: string;
  /** The text after the first `?`, empty when there is none. */
  query: string;
}

/** Characters after which parseurl, which Express reads every URL with, gives up splitting at `?` and runs the full URL parser. */
const NOT_SPLIT_PARSED = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path and query of the request's URL, split as parseurl splits them: a URL that starts with
 * `/` and has none of NOT_SPLIT_PARSED at its first `?`, here without parseurl's `Url` object;
 * any other (an absolute URL a proxy sends, one with a `#`) by parseurl itself, whose full
 * parser also escapes what it must. Undefined when the URL has no path (`*`).
 */
export function requestTarget(req: IncomingMessage): RequestTarget | undefined {
  const url = req.url ?? "";
  if (url.charCodeAt(0) === 47 /* "/" */ && !NOT_SPLIT_PARSED.test(url)) {
    const queryAt = url.indexOf("?");
    return queryAt === -1 ? { pathname: url, query: "" } : { pathname: url.slice(0, queryAt), query: url.slice(queryAt + 1) };
  }
  const parsed = parseurl(req);
  if (!parsed?.pathname) return undefined;
  return { pathname: parsed.pathname, query: typeof parsed.query === "string" ? parsed.query : "" };
}
