/**
 * The WebSocket URL of the app at `origin` (the client's `url`): `http` becomes `ws`, `https`
 * `wss`, and `""` is the page's own location, as it is for HTTP calls.
 */
export function socketUrl(origin: string, path: string): string {
  const base = origin || (globalThis as { location?: { origin: string } }).location?.origin;
  if (!base) throw new TypeError('herald/client: a client whose url is "" opens a socket only in a page, whose location it connects to');
  return `${base.replace(/^http(s?):/i, "ws$1:")}${path.startsWith("/") ? path : `/${path}`}`;
}
