import { injectable } from "tsyringe";
import { z } from "zod";
import { readSettings } from "../core/config";
import { RUN_MODE } from "../core/constants";
import type { Initializer } from "../core/initializer";
import { providedOrMade } from "../core/provided-or-made";
import { HeraldServer } from "../core/server";
import { MemoryRateLimitStore } from "./memory-rate-limit-store";
import { RATE_LIMIT_STORE_TOKEN, RateLimitStore } from "./rate-limit-store";
import { RedisRateLimitStore } from "./redis-rate-limit-store";

const settingsSchema = z.object({
  /** Where counters live in Redis; default `<NAME>:ratelimit:`. */
  RATE_LIMIT_PREFIX: z.string().min(1).optional(),
});

/**
 * Provides the rate-limit store that `rateLimit()` middleware count in: Redis when REDIS_URL is
 * set, else in process (unless the app registered its own). Registered before the actions and
 * their middleware are built; its Redis connection opens at the first counted call.
 */
@injectable()
export class RateLimitInitializer implements Initializer {
  readonly name = "rate-limit";
  readonly runModes = Object.values(RUN_MODE);
  store!: RateLimitStore;
  private ownsStore = false;

  constructor(private readonly server: HeraldServer) {}

  register(): void {
    const { config, container, logger } = this.server;
    const { value, owned } = providedOrMade(container, RATE_LIMIT_STORE_TOKEN, () => {
      const { RATE_LIMIT_PREFIX } = readSettings(settingsSchema, config);
      return config.redisUrl
        ? new RedisRateLimitStore({ url: config.redisUrl, prefix: RATE_LIMIT_PREFIX ?? `${config.name}:ratelimit:`, logger })
        : new MemoryRateLimitStore();
    });
    this.store = value;
    this.ownsStore = owned;
  }

  async stop(): Promise<void> {
    if (this.ownsStore) await this.store.close();
  }
}
