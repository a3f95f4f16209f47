import type { IncomingMessage } from "node:http";
import type Provider from "oidc-provider" with { "resolution-mode": "import" };
import type { IssuedAccessToken, LocalAuthorizationServer, ProtectedResource } from "../core/ports/authorization-server";
import { Connection } from "../core/connection";
import { CONNECTION_TYPE } from "../core/constants";
import { ErrorType, TypedError } from "../core/errors";
import type { HeraldServer } from "../core/server";
import type { SessionManager } from "../sessions/session-manager";
import type { AuthSettings } from "./auth-settings";
import { subjectOf, type SubjectPicker } from "./account-subject";
import type { SignInOutcome } from "./interactions";
import { holdUntrustedErrorRedirects } from "./error-redirects";
import { buildUrlsOnIssuer } from "./issuer-urls";
import { metadataDocumentFetch } from "./metadata-document-fetch";
import { BASE_SCOPE, providerConfiguration, ROUTES } from "./provider-configuration";
import { signInPolicy } from "./sign-in-policy";
import { checkSigningKeys } from "./signing-keys";
import type { OAuthStorage } from "./storage";

/** oidc-provider is an ES module, which Node 22.12+ and 24 `require()`: loaded with the first request it serves. */
type OidcProvider = typeof import("oidc-provider", { with: { "resolution-mode": "import" } });

/**
 * The built-in authorization server: oidc-provider, whose accounts are the app's users. Signing
 * in runs the app's sign-in action with a fresh session; the account is the user's id the action
 * returned (clients' `sub`, the same at every sign-in), and the grant's id is that session's, so
 * a token's calls get that session back and the app's own sign-in checks apply to them. Once the
 * session ends (sign-out, password change, expiry) its tokens and refresh tokens do too.
 */
export class AuthorizationServer implements LocalAuthorizationServer {
  private readonly resources: ProtectedResource[] = [];
  private built: Provider | undefined;
  /** Kept for the process: it remembers the documents that failed. */
  private readonly fetchDocument: typeof fetch;

  constructor(
    private readonly herald: HeraldServer,
    private readonly settings: AuthSettings,
    readonly storage: OAuthStorage,
    private readonly signInAction: string,
    private readonly sessions: () => SessionManager,
    private readonly pickSubject?: SubjectPicker,
  ) {
    this.fetchDocument = metadataDocumentFetch({ allowedHosts: settings.clientMetadataAllowedHosts ?? [] });
  }

  /** The server's origin, at PUBLIC_URL when it is set: known once the server listens. */
  get issuer(): string {
    const base = this.settings.publicUrl?.href ?? this.herald.url;
    if (!base) throw new TypedError({ message: "The authorization server's issuer is not known before the server listens", type: ErrorType.CONNECTION_SERVER_ERROR });
    return new URL(base).origin;
  }

  protect(resource: ProtectedResource): void {
    this.resources.push(resource);
  }

  /** Refuses, at boot, signing keys that oidc-provider would refuse at the first OAuth request. */
  checkSigningKeys(): void {
    const { Provider } = require("oidc-provider") as OidcProvider;
    // The issuer plays no part in reading the keys: the server's own is not known before it listens.
    checkSigningKeys(this.settings.jwks, () => new Provider("https://issuer.invalid", this.configuration()));
  }

  private configuration() {
    const { errors, interactionPolicy } = require("oidc-provider") as OidcProvider;
    const sessionAlive = async (sessionId: string) => (await this.sessions().store.get(sessionId)) !== undefined;
    return providerConfiguration({
      settings: this.settings,
      storage: this.storage,
      resources: () => this.resources,
      sessionAlive,
      policy: signInPolicy(interactionPolicy, sessionAlive),
      errors,
      fetch: this.fetchDocument,
    });
  }

  provider(): Provider {
    if (this.built) return this.built;
    const { Provider } = require("oidc-provider") as OidcProvider;
    const provider = new Provider(this.issuer, this.configuration());
    provider.use(async (ctx, next) => {
      if (ctx.path === ROUTES.authorization && ctx.method === "GET" && !ctx.query.scope) ctx.query = { ...ctx.query, scope: BASE_SCOPE };
      await next();
    });
    holdUntrustedErrorRedirects(provider);
    buildUrlsOnIssuer(provider, () => this.issuer);
    provider.proxy = this.herald.config.trustProxy !== false;
    const { logger } = this.herald;
    // Every invalid_grant reads the same to the client: the reason is only in the log.
    provider.on("grant.error", (_ctx, error: Error) => logger.debug({ err: error }, "oauth: token request refused"));
    provider.on("server_error", (_ctx, error: Error) => logger.error({ err: error }, "oauth: server error"));
    this.built = provider;
    return provider;
  }

  async verifyAccessToken(token: string): Promise<IssuedAccessToken | undefined> {
    const provider = this.provider();
    const accessToken = await provider.AccessToken.find(token);
    // find() accepts a token a little past its expiry, for clock skew between servers; here there is one clock.
    if (!accessToken || accessToken.isExpired || !accessToken.accountId || !accessToken.grantId) return undefined;
    // The grant's id is the session its sign-in filled.
    const session = await this.sessions().open(accessToken.grantId);
    if (session.unavailable) throw new TypedError({ message: "The session store is unavailable", type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE });
    if (session.id === undefined) return undefined;
    return {
      claims: {
        iss: this.issuer,
        sub: accessToken.accountId,
        client_id: accessToken.clientId,
        scope: accessToken.scope ?? "",
        aud: accessToken.aud,
        exp: accessToken.exp,
        iat: accessToken.iat,
      },
      session,
    };
  }

  /** Runs the app's sign-in action, with its middleware, on a fresh session: the account is the session it populated. */
  async signIn(params: Record<string, unknown>, request: IncomingMessage): Promise<SignInOutcome> {
    const session = await this.sessions().open();
    const remoteAddress = this.herald.callerAddress(request);
    const connection = new Connection({
      type: CONNECTION_TYPE.web,
      ...(remoteAddress ? { remoteAddress } : {}),
      incomingHeaders: request.headers,
      session,
    });
    const result = await this.herald.dispatcher.run(this.signInAction, params, connection);
    if (result.error) return { error: result.error };
    if (session.id === undefined) {
      return { error: new TypedError({ message: `${this.signInAction} signed no one in: it left the session empty`, type: ErrorType.CONNECTION_SERVER_ERROR }) };
    }
    const subject = subjectOf(result.response, this.pickSubject);
    if (subject === undefined) {
      const message = `${this.signInAction} named no user: return the user's id as \`user.id\` or \`id\`, or set oauth.subject`;
      return { error: new TypedError({ message, type: ErrorType.CONNECTION_SERVER_ERROR }) };
    }
    return { accountId: subject, sessionId: session.id };
  }
}
