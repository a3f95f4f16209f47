import type Provider from "oidc-provider" with { "resolution-mode": "import" };
import type { KoaContextWithOIDC } from "oidc-provider" with { "resolution-mode": "import" };
import { renderErrorPage } from "./pages";

type ProviderError = Error & { error?: string; error_description?: string; statusCode?: number };

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** A loopback redirect answers on the user's own machine: a redirect there cannot land on someone else's page. */
export function isLoopbackRedirect(uri: unknown): boolean {
  const parsed = typeof uri === "string" ? URL.parse(uri) : null;
  return parsed?.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname);
}

/** Whether the browser's signed-in user has granted this client already: they chose to be sent back to it. */
async function grantedByUser(provider: Provider, ctx: KoaContextWithOIDC): Promise<boolean> {
  const { client, session } = ctx.oidc;
  const accountId = session?.accountId;
  const grantId = client && accountId ? session.grantIdFor(client.clientId) : undefined;
  if (!client || !grantId) return false;
  const grant = await provider.Grant.find(grantId);
  return grant?.clientId === client.clientId && grant.accountId === accountId;
}

/**
 * Sends an error of `/oauth/authorize` back to the client's redirect URI only when that URI is
 * trusted (RFC 9700 §4.11.2): a loopback URI, or a client the browser's signed-in user has
 * granted. Otherwise anyone who registers a client could bounce a browser off this server to
 * any site of theirs, with no one asked, by sending a request bound to fail. Such an error is
 * shown on a page instead. The redirects at the end of a sign-in (`/oauth/authorize/<uid>`) are
 * left alone: the user has seen the consent page, which names where the client returns to.
 */
export function holdUntrustedErrorRedirects(provider: Provider): void {
  const failed = new WeakMap<object, ProviderError>();
  const record = (ctx: KoaContextWithOIDC, error: ProviderError) => {
    if (ctx.oidc?.route === "authorization") failed.set(ctx, error);
  };
  provider.on("authorization.error", record);
  provider.on("server_error", record);
  provider.use(async (ctx, next) => {
    await next();
    const error = failed.get(ctx);
    // A status below 400 after an error is the error on its way to the client (a redirect, or form_post's page).
    if (!error || ctx.status >= 400) return;
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    if (isLoopbackRedirect(oidc.params?.redirect_uri) || (await grantedByUser(provider, ctx as KoaContextWithOIDC))) return;
    ctx.remove("Location");
    ctx.status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
    ctx.type = "html";
    ctx.body = renderErrorPage(error.error ?? "server_error", error.error_description);
  });
}
