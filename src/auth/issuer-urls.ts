import type Provider from "oidc-provider" with { "resolution-mode": "import" };
import type { KoaContextWithOIDC } from "oidc-provider" with { "resolution-mode": "import" };
import { METADATA_CACHE_CONTROL } from "../core/ports/authorization-server";


/**
 * Builds every URL oidc-provider writes (its metadata's endpoints, redirects to its pages) on
 * the issuer, rather than on the request's `Host` or `X-Forwarded-Host`: anyone can send those,
 * and a cache in front would keep the endpoints they named for everyone. oidc-provider joins
 * its paths to Koa's `ctx.href`, which is the request's URL as such when that is absolute.
 * The metadata documents are marked cacheable for a while.
 */
export function buildUrlsOnIssuer(provider: Provider, issuer: () => string): void {
  provider.use(async (ctx, next) => {
    ctx.request.originalUrl = new URL(ctx.request.originalUrl, issuer()).href;
    await next();
    if ((ctx as KoaContextWithOIDC).oidc?.route === "discovery" && ctx.status === 200) ctx.set("Cache-Control", METADATA_CACHE_CONTROL);
  });
}
