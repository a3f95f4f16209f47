/** The host names of the machine itself, as a URL spells them. */
const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());
}

/**
 * `url` as a request to this machine names it: under the request's `Host` when both are
 * loopback spellings of the same port (`localhost` for `127.0.0.1`), else `url` as it is.
 */
export function asRequestSpellsIt(url: URL, host: string | undefined): URL {
  if (!host || !isLoopbackHostname(url.hostname)) return url;
  const asked = URL.parse(`${url.protocol}//${host}`);
  if (!asked || !isLoopbackHostname(asked.hostname) || asked.port !== url.port || asked.username || asked.pathname !== "/") return url;
  const spelled = new URL(url);
  spelled.hostname = asked.hostname;
  return spelled;
}
