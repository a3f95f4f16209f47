/** Hosts that name this machine: a redirect there never crosses the network (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * The first redirect URI that would carry an authorization code over the network in clear: plain
 * `http` to a host other than loopback. OAuth 2.1 and RFC 9700 §2.6 want `https`, with `http`
 * only on loopback, where native apps listen (RFC 8252); oidc-provider refuses it for native
 * clients, but lets a web client register it unless it uses the implicit grant.
 */
export function plainHttpRedirect(uris: unknown): string | undefined {
  if (!Array.isArray(uris)) return undefined;
  return uris.find((uri): uri is string => {
    const parsed = typeof uri === "string" ? URL.parse(uri) : null;
    return parsed?.protocol === "http:" && !LOOPBACK_HOSTS.has(parsed.hostname);
  });
}
