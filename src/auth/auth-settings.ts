import { randomBytes } from "node:crypto";
import { z } from "zod";
import { readSettings, type HeraldConfig } from "../core/config";
import { ErrorType, TypedError } from "../core/errors";
import { generatedSigningKeys } from "../core/signing-keys";
import type { Logger } from "../core/logger";
import { zCommaList } from "../core/setting-schemas";
import { readAuthLimits, type AuthLimits } from "./limit-settings";

const MIN_COOKIE_SECRET = 32;
const seconds = z.coerce.number().int().positive();

const schema = z.object({
  /** The signing keys, a private JWK Set as JSON (`{"keys":[…]}`); the first signs. */
  OAUTH_JWKS: z.string().optional(),
  /** Secrets that sign the authorization server's cookies, comma-separated; the first signs, every one verifies. */
  OAUTH_COOKIE_SECRETS: zCommaList.optional(),
  OAUTH_REDIS_PREFIX: z.string().min(1).optional(),
  OAUTH_ACCESS_TOKEN_TTL: seconds.default(3600),
  OAUTH_REFRESH_TOKEN_TTL: seconds.default(30 * 86_400),
  PUBLIC_URL: z.url().optional(),
  /** Host names whose client ID metadata documents are fetched even at a special-use address (loopback, private…). */
  OAUTH_CLIENT_METADATA_ALLOWED_HOSTS: zCommaList.optional(),
});

type Jwks = { keys: Record<string, unknown>[] };

/** The keys and secrets made for this process because the environment set none. */
export interface GeneratedAuthKeys {
  jwks?: Jwks;
  cookieSecrets?: string[];
}

export interface AuthSettings {
  jwks: Jwks;
  cookieSecrets: string[];
  generated: GeneratedAuthKeys;
  redisPrefix: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  publicUrl?: URL;
  limits: AuthLimits;
  /** Hosts whose client ID metadata documents are fetched whatever address they resolve to; none by default. */
  clientMetadataAllowedHosts?: string[];
}

function configError(message: string, key: string): TypedError {
  return new TypedError({ message, type: ErrorType.CONFIG_ERROR, key });
}

function parseJwks(text: string): Jwks {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw configError("Invalid environment variable OAUTH_JWKS: must be a JSON Web Key Set, {\"keys\":[…]}", "OAUTH_JWKS");
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((key) => typeof (key as { d?: unknown })?.d === "string")) {
    throw configError("Invalid environment variable OAUTH_JWKS: needs \"keys\", private keys (with \"d\")", "OAUTH_JWKS");
  }
  return { keys: keys as Record<string, unknown>[] };
}

/**
 * The authorization server's settings. In production its signing keys and cookie secrets are
 * required: the boot stops without them. Elsewhere each process makes its own, with a warning,
 * so its tokens and sign-in pages are worthless to any other process and after a restart.
 * `kept` is what a boot before a `herald dev` reload made, already warned of: what it signed stays
 * valid after the reload.
 */
export function readAuthSettings(config: HeraldConfig, logger?: Logger, kept: GeneratedAuthKeys = {}): AuthSettings {
  const env = readSettings(schema, config);
  if (env.OAUTH_COOKIE_SECRETS?.some((secret) => secret.length < MIN_COOKIE_SECRET)) {
    throw configError(`Invalid environment variable OAUTH_COOKIE_SECRETS: each secret must be at least ${MIN_COOKIE_SECRET} characters long`, "OAUTH_COOKIE_SECRETS");
  }
  if (config.production) {
    if (!env.OAUTH_JWKS) throw configError("Invalid environment variable OAUTH_JWKS: required in production to sign the authorization server's tokens", "OAUTH_JWKS");
    if (!env.OAUTH_COOKIE_SECRETS?.length) {
      throw configError(`Invalid environment variable OAUTH_COOKIE_SECRETS: required in production (at least ${MIN_COOKIE_SECRET} characters) to sign the authorization server's cookies`, "OAUTH_COOKIE_SECRETS");
    }
  }
  const missing = [...(env.OAUTH_JWKS ? [] : ["OAUTH_JWKS"]), ...(env.OAUTH_COOKIE_SECRETS?.length ? [] : ["OAUTH_COOKIE_SECRETS"])];
  const generated: GeneratedAuthKeys = {
    ...(env.OAUTH_JWKS ? {} : { jwks: kept.jwks ?? generatedSigningKeys() }),
    ...(env.OAUTH_COOKIE_SECRETS?.length ? {} : { cookieSecrets: kept.cookieSecrets ?? [randomBytes(32).toString("hex")] }),
  };
  if (missing.length && !(kept.jwks || kept.cookieSecrets)) {
    const log = config.env === "test" ? logger?.debug : logger?.warn;
    log?.call(logger, `${missing.join(" and ")} not set: the authorization server uses keys made for this process, valid only on it and until it exits`);
  }
  return {
    jwks: env.OAUTH_JWKS ? parseJwks(env.OAUTH_JWKS) : generated.jwks!,
    cookieSecrets: env.OAUTH_COOKIE_SECRETS?.length ? env.OAUTH_COOKIE_SECRETS : generated.cookieSecrets!,
    generated,
    redisPrefix: env.OAUTH_REDIS_PREFIX ?? `${config.name}:oauth:`,
    accessTokenTtl: env.OAUTH_ACCESS_TOKEN_TTL,
    refreshTokenTtl: env.OAUTH_REFRESH_TOKEN_TTL,
    limits: readAuthLimits(config, env.OAUTH_REFRESH_TOKEN_TTL),
    ...(env.PUBLIC_URL ? { publicUrl: new URL(env.PUBLIC_URL) } : {}),
    clientMetadataAllowedHosts: env.OAUTH_CLIENT_METADATA_ALLOWED_HOSTS ?? [],
  };
}
