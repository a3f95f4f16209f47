import type { Logger } from "./logger";

/**
 * A promise an action forgot to await must not take the whole server down with it: the
 * rejection is logged once and the process keeps serving. Returns a function that removes it.
 */
export function guardUnhandledRejections(logger: Logger): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, "unhandled promise rejection (the process keeps running)");
  };
  process.on("unhandledRejection", onRejection);
  return () => process.off("unhandledRejection", onRejection);
}
