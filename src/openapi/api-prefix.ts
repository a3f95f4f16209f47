import { z } from "zod";
import { HeraldConfig, readSettings } from "../core/config";

export const DEFAULT_API_PREFIX = "/api";

/** `api/` → `/api`, `/` → `` (actions at the root): one leading slash, no trailing one. */
export function normalizeApiPrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, "");
  return trimmed ? `/${trimmed}` : "";
}

/** The variable the web transport reads its prefix from; it also validates the value. */
export const API_PREFIX_VARIABLE = "HTTP_API_PREFIX";

const settingsSchema = z.object({ [API_PREFIX_VARIABLE]: z.string().default(DEFAULT_API_PREFIX) });

/** The prefix actions are served under, read from the same variable as the web transport. */
export function readApiPrefix(config: Pick<HeraldConfig, "raw">): string {
  return normalizeApiPrefix(readSettings(settingsSchema, config)[API_PREFIX_VARIABLE]);
}
