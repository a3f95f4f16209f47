import { createHash, randomBytes } from "node:crypto";

/** The redirect URI the test clients register: nothing listens there, the redirect itself is read. */
export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function registerClient(base: string, metadata: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Test Client", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", ...metadata }),
  });
  const body = (await response.json()) as { client_id?: string };
  if (!response.ok || !body.client_id) throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
  return body.client_id;
}

/** A browser reduced to what the authorization flow needs: cookies by name, redirects followed by hand. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
  }
}

export interface AuthorizeOptions {
  base: string;
  clientId: string;
  challenge: string;
  /** The sign-in form's fields, by name. */
  credentials: Record<string, string>;
  redirectUri?: string;
  resource?: string;
  decision?: "allow" | "deny";
  /** The scopes asked for; the server gives `mcp` to a request that names none. */
  scope?: string;
  /** The browser's cookies, kept for a later request of the same browser. */
  jar?: CookieJar;
}

/**
 * Walks an authorization request to the redirect back to the client: the sign-in form, then the
 * consent form, posted as a browser posts them. Returns that redirect's URL, or the last answer
 * when something else ends the walk.
 */
export async function authorize(options: AuthorizeOptions): Promise<URL | Response> {
  const jar = options.jar ?? new CookieJar();
  const query = new URLSearchParams({
    client_id: options.clientId,
    response_type: "code",
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    code_challenge: options.challenge,
    code_challenge_method: "S256",
    state: randomBytes(8).toString("hex"),
    resource: options.resource ?? `${options.base}/mcp`,
    ...(options.scope ? { scope: options.scope } : {}),
  });
  return walk(new URL(`${options.base}/oauth/authorize?${query}`), options.credentials, jar, options.decision);
}

/** Walks from an authorization URL to the redirect back to the client, or the last answer. */
async function walk(start: URL, credentials: Record<string, string>, jar: CookieJar, decision: "allow" | "deny" = "allow"): Promise<URL | Response> {
  const base = start.origin;
  let next: { url: string; form?: URLSearchParams } | undefined = { url: start.href };
  for (let hop = 0; next && hop < 12; hop++) {
    const response: Response = await fetch(next.url, {
      method: next.form ? "POST" : "GET",
      redirect: "manual",
      headers: { Cookie: jar.header(), Origin: base, ...(next.form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
      ...(next.form ? { body: next.form } : {}),
    });
    jar.take(response);
    const location = response.headers.get("location");
    if (location) {
      const target: URL = new URL(location, next.url);
      if (target.origin !== base) return target;
      next = { url: target.href };
      continue;
    }
    const html = await response.clone().text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action) return response;
    const form = action.endsWith("/login") ? new URLSearchParams(credentials) : new URLSearchParams({ decision });
    next = { url: new URL(action.replaceAll("&amp;", "&"), base).href, form };
  }
  throw new Error("the authorization did not end in a redirect");
}

/** Signs in and allows at an authorization URL an MCP client made, as a browser would: the redirect back to the client. */
export async function signInAt(authorizationUrl: URL, credentials: Record<string, string>): Promise<URL> {
  const end = await walk(authorizationUrl, credentials, new CookieJar());
  if (!(end instanceof URL)) throw new Error(`the sign-in ended at ${end.status}: ${await end.text()}`);
  return end;
}

export async function tokenRequest(base: string, params: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/oauth/token`, { method: "POST", body: new URLSearchParams(params) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A tools/call of the stateless 2025 protocol, with the token when one is given. */
export async function callTool(base: string, name: string, token?: string): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-06-18",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
  });
}
