import { randomBytes } from "node:crypto";
import { z } from "zod";
import { HeraldConfig, readSettings } from "../core/config";
import { ErrorType, TypedError } from "../core/errors";
import type { Logger } from "../core/logger";

/** RFC 6265 cookie-name characters. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const MIN_SECRET_LENGTH = 32;

const sessionEnvironment = z.object({
  SESSION_SECRET: z.string().optional(),
  SESSION_TTL: z.coerce.number().int().positive().default(86_400_000),
  SESSION_COOKIE: z.string().regex(COOKIE_NAME, "must be a cookie name (letters, digits, !#$%&'*+-.^_`|~)").default("herald.sid"),
  SESSION_REDIS_PREFIX: z.string().min(1).optional(),
});

/** The session cookie's name alone: what a middleware that reads the session needs to describe it. */
export function readSessionCookieName(config: HeraldConfig): string {
  return readSettings(sessionEnvironment.pick({ SESSION_COOKIE: true }), config).SESSION_COOKIE;
}

export interface SessionSettings {
  secret: string;
  ttlMs: number;
  cookieName: string;
  /** Cookies are Secure (HTTPS only) in production. */
  secure: boolean;
  /** Where sessions live in Redis: `<NAME>:session:` unless SESSION_REDIS_PREFIX says otherwise. */
  redisPrefix: string;
  /** Whether `secret` was made for this process, since cookies are served and none is set. */
  generated: boolean;
}

/**
 * The session settings from the environment. Where session cookies are served (`servesCookies`),
 * SESSION_SECRET is required in production, and elsewhere a random secret is made for this
 * process, so cookies do not outlive it, and a warning says so. A process that serves no cookie
 * (the CLI, the task workers, MCP over stdio) signs none: it takes a random secret silently.
 * `keptSecret` is the random secret a boot before a `herald dev` reload made, already warned of:
 * cookies signed before the reload stay valid after it.
 */
export function readSessionSettings(config: HeraldConfig, logger?: Logger, servesCookies = true, keptSecret?: string): SessionSettings {
  const env = readSettings(sessionEnvironment, config);
  const secret = env.SESSION_SECRET;
  // Checked here rather than in the schema, whose error would carry the rejected value.
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) {
    throw new TypedError({
      message: `Invalid environment variable SESSION_SECRET: must be at least ${MIN_SECRET_LENGTH} characters long`,
      type: ErrorType.CONFIG_ERROR,
      key: "SESSION_SECRET",
    });
  }
  if (secret !== undefined) return { ...settingsFrom(env, config, secret), generated: false };
  if (!servesCookies) return { ...settingsFrom(env, config, randomSecret()), generated: false };
  if (config.production) {
    throw new TypedError({
      message: `Invalid environment variable SESSION_SECRET: required in production (at least ${MIN_SECRET_LENGTH} characters) to sign session cookies`,
      type: ErrorType.CONFIG_ERROR,
      key: "SESSION_SECRET",
    });
  }
  if (keptSecret === undefined) {
    const log = config.env === "test" ? logger?.debug : logger?.warn;
    log?.call(
      logger,
      "SESSION_SECRET is not set: session cookies are signed with a random secret, so they are valid only until this process exits and only on it",
    );
  }
  return { ...settingsFrom(env, config, keptSecret ?? randomSecret()), generated: true };
}

function randomSecret(): string {
  return randomBytes(32).toString("hex");
}

function settingsFrom(env: z.infer<typeof sessionEnvironment>, config: HeraldConfig, secret: string): Omit<SessionSettings, "generated"> {
  return {
    secret,
    ttlMs: env.SESSION_TTL,
    cookieName: env.SESSION_COOKIE,
    secure: config.production,
    redisPrefix: env.SESSION_REDIS_PREFIX ?? `${config.name}:session:`,
  };
}
