import { injectable } from "tsyringe";
import { z } from "zod";
import { readSettings } from "../core/config";
import { StoreInitializer } from "../core/store-initializer";
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
export class RateLimitInitializer extends StoreInitializer<RateLimitStore> {
  readonly name = "rate-limit";

  constructor(server: HeraldServer) {
    super(server, RATE_LIMIT_STORE_TOKEN);
  }

  protected make(): RateLimitStore {
    const { config, logger } = this.server;
    const { RATE_LIMIT_PREFIX } = readSettings(settingsSchema, config);
    return config.redisUrl
      ? new RedisRateLimitStore({ url: config.redisUrl, prefix: RATE_LIMIT_PREFIX ?? `${config.name}:ratelimit:`, logger })
      : new MemoryRateLimitStore();
  }
}
