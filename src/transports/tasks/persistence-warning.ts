import type { Logger } from "../../core/logger";
import type { QueueDriver } from "./driver";

/**
 * One line at boot when the queue's Redis keeps nothing across a restart: every queued and
 * delayed job would go with it, silently. Where Redis does not tell (CONFIG disabled, as on
 * many managed services), a softer note; a failed check never holds the boot up.
 */
export async function warnWithoutPersistence(driver: QueueDriver, logger: Logger): Promise<void> {
  let persistence;
  try {
    persistence = await driver.persistence?.();
  } catch (error) {
    logger.debug({ err: error }, "task queue: could not read the persistence settings of Redis");
    return;
  }
  if (!persistence || persistence.aof === true || persistence.rdb === true) return;
  if (persistence.aof === "unknown" || persistence.rdb === "unknown") {
    logger.info(
      "task queue: Redis does not say whether it keeps its data across a restart (CONFIG is disabled); queued and delayed jobs survive one only with AOF or RDB persistence",
    );
    return;
  }
  logger.warn(
    { appendonly: "no", save: "" },
    "task queue: Redis keeps no data across a restart, so queued and delayed jobs are lost when it restarts: set appendonly yes (appendfsync everysec), or a save schedule for RDB snapshots",
  );
}
