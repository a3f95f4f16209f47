import { injectable } from "tsyringe";
import { RUN_MODE } from "../core/constants";
import type { Initializer } from "../core/initializer";
import { keepAcrossReload, reclaimKept } from "../core/kept-across-reloads";
import { providedOrMade } from "../core/provided-or-made";
import { HeraldServer } from "../core/server";
import { MemorySessionStore } from "./memory-store";
import { RedisSessionStore } from "./redis-store";
import { SessionManager } from "./session-manager";
import { readSessionSettings } from "./session-settings";
import { SESSION_STORE_TOKEN, SessionStore } from "./session-store";

/** What a `herald dev` reload keeps, so that a signed-in browser stays signed in across it. */
interface KeptSessions {
  /** The random secret made when SESSION_SECRET is not set, its warning already given. */
  secret: string | undefined;
  /** The in-process store this server made, with the sessions it holds. */
  store: MemorySessionStore | undefined;
}

const KEPT_SESSIONS = "herald:sessions";

/**
 * Sets up sessions: a Redis store when REDIS_URL is set, else an in-process one (unless a test or
 * an app registered its own SessionStore), and the SessionManager the transports use.
 */
@injectable()
export class SessionsInitializer implements Initializer {
  readonly name = "sessions";
  readonly runModes = Object.values(RUN_MODE);
  store!: SessionStore;
  manager!: SessionManager;
  private ownsStore = false;
  private generatedSecret: string | undefined;

  constructor(private readonly server: HeraldServer) {}

  /** Registers the store and the manager, so that actions, services and other initializers can have them injected. */
  register(): void {
    const { server } = this;
    const { config, container, logger } = server;
    const kept = reclaimKept<KeptSessions>(KEPT_SESSIONS);
    // Only the server run mode serves HTTP and WebSocket, the transports whose cookies carry sessions.
    const settings = readSessionSettings(config, logger, server.runMode === RUN_MODE.server, kept?.secret);
    this.generatedSecret = settings.generated ? settings.secret : undefined;
    const { value, owned } = providedOrMade(container, SESSION_STORE_TOKEN, () =>
      config.redisUrl
        ? new RedisSessionStore({ url: config.redisUrl, prefix: settings.redisPrefix, logger })
        : (kept?.store ?? new MemorySessionStore()),
    );
    this.store = value;
    this.ownsStore = owned;
    this.manager = new SessionManager({
      store: this.store,
      secret: settings.secret,
      ttlMs: settings.ttlMs,
      cookieName: settings.cookieName,
      secure: settings.secure,
      logger,
    });
    container.register(SessionManager, { useValue: this.manager });
  }

  async initialize(): Promise<void> {
    const store = this.store;
    if (!(store instanceof RedisSessionStore)) return;
    // Public reads go on without sessions: Redis down makes the server degraded, not down (docs/observability.md).
    this.server.health.register("redis", () => store.ping(), { essential: false });
    try {
      await store.connect();
    } catch (error) {
      // Not fatal: the client keeps reconnecting; meanwhile session reads and writes fail with 503.
      this.server.logger.warn({ err: error }, "sessions: Redis is not reachable yet");
    }
  }

  async stop(): Promise<void> {
    const memoryStore = this.ownsStore && this.store instanceof MemorySessionStore ? this.store : undefined;
    const kept: KeptSessions = { secret: this.generatedSecret, store: memoryStore };
    const keeping = (kept.secret || kept.store) && keepAcrossReload(KEPT_SESSIONS, kept, (value) => value.store?.close());
    if (this.ownsStore && !(keeping && memoryStore)) await this.store.close();
  }
}
