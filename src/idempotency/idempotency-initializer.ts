import { injectable } from "tsyringe";
import { z } from "zod";
import { readSettings } from "../core/config";
import { IDEMPOTENCY_STORE_TOKEN, IdempotencyStore } from "../core/idempotency-store";
import { StoreInitializer } from "../core/store-initializer";
import { HeraldServer } from "../core/server";
import { MemoryIdempotencyStore } from "./memory-idempotency-store";
import { RedisIdempotencyStore } from "./redis-idempotency-store";

const settingsSchema = z.object({
  /** How long a call's answer is replayed to a retry with its key, in milliseconds: a day, as Stripe keeps them. */
  IDEMPOTENCY_TTL: z.coerce.number().int().min(1000).default(86_400_000),
  /** Where records live in Redis; default `<NAME>:idempotency:`. */
  IDEMPOTENCY_PREFIX: z.string().min(1).optional(),
});

/**
 * Provides the store of idempotency keys the dispatcher records calls in: Redis when REDIS_URL is
 * set, else in process (unless the app registered its own). Registered before the dispatcher is
 * built; its Redis connection opens at the first call made with a key.
 */
@injectable()
export class IdempotencyInitializer extends StoreInitializer<IdempotencyStore> {
  readonly name = "idempotency";

  constructor(server: HeraldServer) {
    super(server, IDEMPOTENCY_STORE_TOKEN);
  }

  protected make(): IdempotencyStore {
    const { config, logger } = this.server;
    const { IDEMPOTENCY_TTL, IDEMPOTENCY_PREFIX } = readSettings(settingsSchema, config);
    return config.redisUrl
      ? new RedisIdempotencyStore({ url: config.redisUrl, prefix: IDEMPOTENCY_PREFIX ?? `${config.name}:idempotency:`, ttlMs: IDEMPOTENCY_TTL, logger })
      : new MemoryIdempotencyStore(IDEMPOTENCY_TTL);
  }
}
