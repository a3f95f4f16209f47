import { z } from "zod";
import { readSettings, type HeraldConfig } from "../core/config";

const count = z.coerce.number().int().positive();
const seconds = z.coerce.number().int().positive();

/** What the in-process store assumes when it is built without settings: the settings' defaults. */
export const DEFAULT_CLIENT_LIFETIME = { pending: 6 * 3600, idle: 30 * 86_400 };
export const DEFAULT_MAX_CLIENTS = 5000;

const schema = z.object({
  /** `open`: any client may register itself (RFC 7591); `off`: only clients named by a client ID metadata document. */
  OAUTH_REGISTRATION: z.enum(["open", "off"]).default("open"),
  OAUTH_REGISTRATIONS_PER_ADDRESS: count.default(20),
  OAUTH_REGISTRATIONS_PER_HOUR: count.default(1000),
  OAUTH_PENDING_CLIENT_TTL: seconds.default(DEFAULT_CLIENT_LIFETIME.pending),
  OAUTH_IDLE_CLIENT_TTL: seconds.optional(),
  OAUTH_MAX_CLIENTS: count.default(DEFAULT_MAX_CLIENTS),
  OAUTH_AUTHORIZATIONS_PER_ADDRESS: count.default(30),
  OAUTH_AUTHORIZATIONS_IN_FLIGHT: count.default(5000),
});

/** How long a registered client is kept, in seconds, each use pushing its expiry on. */
export interface ClientLifetime {
  /** Until a token is first issued to it: a registration that never led to a sign-in. */
  pending: number;
  /** Once a token was issued to it: since its last use. */
  idle: number;
}

/** What an anonymous caller may make the authorization server store. */
export interface AuthLimits {
  registration: boolean;
  /** Registrations per address per hour. */
  registrationsPerAddress: number;
  /** Registrations per hour across every address. */
  registrationsPerHour: number;
  clientLifetime: ClientLifetime;
  /** How many registered clients the in-process store holds. */
  maxClients: number;
  /** Authorization requests per address per minute. */
  authorizationsPerAddress: number;
  /** Authorization requests across every address per interaction lifetime (10 minutes). */
  authorizationsInFlight: number;
}

/**
 * The authorization server's bounds on what anonymous callers make it store. A client that has had
 * tokens lives, by default, as long as a refresh token: past that it has nothing left to use.
 */
export function readAuthLimits(config: Pick<HeraldConfig, "raw">, refreshTokenTtl: number): AuthLimits {
  const env = readSettings(schema, config);
  return {
    registration: env.OAUTH_REGISTRATION === "open",
    registrationsPerAddress: env.OAUTH_REGISTRATIONS_PER_ADDRESS,
    registrationsPerHour: env.OAUTH_REGISTRATIONS_PER_HOUR,
    clientLifetime: { pending: env.OAUTH_PENDING_CLIENT_TTL, idle: env.OAUTH_IDLE_CLIENT_TTL ?? refreshTokenTtl },
    maxClients: env.OAUTH_MAX_CLIENTS,
    authorizationsPerAddress: env.OAUTH_AUTHORIZATIONS_PER_ADDRESS,
    authorizationsInFlight: env.OAUTH_AUTHORIZATIONS_IN_FLIGHT,
  };
}
