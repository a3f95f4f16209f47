import type { IncomingMessage, ServerResponse } from "node:http";
import { injectable } from "tsyringe";
import { LOCAL_AUTHORIZATION_SERVER } from "../core/ports/authorization-server";
import { RUN_MODE } from "../core/constants";
import { ErrorType, TypedError } from "../core/errors";
import type { Initializer } from "../core/initializer";
import { keepAcrossReload, reclaimKept } from "../core/kept-across-reloads";
import { HeraldServer } from "../core/server";
import { RATE_LIMIT_STORE_TOKEN } from "../middleware/rate-limit-store";
import { SessionManager } from "../sessions/session-manager";
import { readAuthSettings, type GeneratedAuthKeys } from "./auth-settings";
import { AuthorizationServer } from "./authorization-server";
import { handleInteraction } from "./interactions";
import { MemoryOAuthStorage } from "./memory-storage";
import { INTERACTION_PATH } from "./provider-configuration";
import { RedisOAuthStorage } from "./redis-storage";
import { AuthorizationRequestLimits } from "./request-limits";
import { signInFields } from "./sign-in-form";

/**
 * What a `herald dev` reload keeps, so that the tokens and clients issued before it stay valid:
 * the keys made for the process, and the in-process storage of grants and clients.
 */
interface KeptAuthorization {
  generated: GeneratedAuthKeys;
  storage: MemoryOAuthStorage | undefined;
}

const KEPT_AUTHORIZATION = "herald:oauth";

/**
 * Mounts the built-in authorization server when the app's config names its sign-in action
 * (`oauth: { signIn }`): oidc-provider's endpoints under `/oauth` and its metadata at the site
 * root, the sign-in and consent pages under `/interaction`. It registers itself, so that the MCP
 * transport finds it when it initializes.
 */
@injectable()
export class AuthorizationServerInitializer implements Initializer {
  readonly name = "oauth";
  readonly runModes = [RUN_MODE.server];
  /** Its sign-in and consent pages keep their interaction in the session. */
  readonly dependsOn = ["sessions"];
  server: AuthorizationServer | undefined;
  private generated: GeneratedAuthKeys = {};
  private requestLimits: AuthorizationRequestLimits | undefined;

  constructor(private readonly herald: HeraldServer) {}

  register(): void {
    const { herald } = this;
    const { app, config, container, logger } = herald;
    if (!app.oauth) return;
    const kept = reclaimKept<KeptAuthorization>(KEPT_AUTHORIZATION);
    const settings = readAuthSettings(config, logger, kept?.generated);
    this.generated = settings.generated;
    const { clientLifetime, maxClients } = settings.limits;
    const storage = config.redisUrl
      ? new RedisOAuthStorage(config.redisUrl, settings.redisPrefix, logger, clientLifetime)
      : (kept?.storage ?? new MemoryOAuthStorage({ clientLifetime, maxClients }));
    this.requestLimits = new AuthorizationRequestLimits({
      limits: settings.limits,
      store: () => container.resolve(RATE_LIMIT_STORE_TOKEN),
      callerAddress: (request) => herald.callerAddress(request),
    });
    this.server = new AuthorizationServer(herald, settings, storage, app.oauth.signIn, () => container.resolve(SessionManager), app.oauth.subject);
    container.register(LOCAL_AUTHORIZATION_SERVER, { useValue: this.server });
  }

  async initialize(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const signIn = this.herald.registry.get(this.herald.app.oauth!.signIn);
    if (!signIn) {
      throw new TypedError({ message: `oauth.signIn names the action "${this.herald.app.oauth!.signIn}", which the app does not have`, type: ErrorType.CONFIG_ERROR });
    }
    const fields = signInFields(signIn.action.inputs);
    if (!this.generated.jwks) server.checkSigningKeys();
    let callback: ReturnType<ReturnType<typeof server.provider>["callback"]> | undefined;
    const serveProvider = (request: IncomingMessage, response: ServerResponse) => (callback ??= server.provider().callback())(request, response);
    const requestLimits = this.requestLimits!;
    const mounts = this.herald.httpMounts;
    // oidc-provider reads its own bodies and answers CORS per client: no body parser, no origin check in front of it.
    mounts.push({
      path: "/oauth",
      checksOrigin: true,
      handler: async (request, response) => {
        if (await requestLimits.admit(request, response)) await serveProvider(request, response);
      },
    });
    mounts.push({ path: "/.well-known/oauth-authorization-server", handler: serveProvider });
    mounts.push({ path: "/.well-known/openid-configuration", handler: serveProvider });
    mounts.push({
      path: INTERACTION_PATH,
      handler: (request, response) => handleInteraction({ provider: () => server.provider(), fields, signIn: (params, req) => server.signIn(params, req) }, request, response),
    });
    if (server.storage instanceof RedisOAuthStorage) {
      // Not fatal: the connection keeps retrying; meanwhile the endpoints answer 503.
      await server.storage.connect().catch((error: unknown) => this.herald.logger.warn({ err: error }, "oauth: Redis is not reachable yet"));
    }
  }

  async stop(): Promise<void> {
    const storage = this.server?.storage;
    if (!storage) return;
    const memory = storage instanceof MemoryOAuthStorage ? storage : undefined;
    const kept: KeptAuthorization = { generated: this.generated, storage: memory };
    const keeping = (memory || kept.generated.jwks || kept.generated.cookieSecrets) && keepAcrossReload(KEPT_AUTHORIZATION, kept, (value) => value.storage?.close());
    if (!(keeping && memory)) await storage.close();
  }
}
