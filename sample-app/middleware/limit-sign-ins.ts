import { createHash } from "node:crypto";
import { z } from "zod";
import { HeraldServer, injectable, rateLimit, readSettings, type ActionMiddleware, type Connection } from "herald";

const FIFTEEN_MINUTES = 15 * 60_000;

const settings = z.object({
  SIGN_IN_ATTEMPTS_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  SIGN_IN_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
});

/** The counter's key for an address: hashed, so that the rate-limit store (Redis) holds no e-mail addresses. */
function accountKey(email: string): string {
  return createHash("sha256").update(email.toLowerCase()).digest("base64url");
}

/**
 * Bounds password guessing: sign-in attempts per account (whoever sends them, so spreading a
 * guess list over many addresses does not help) and per address (so one client cannot try many
 * accounts), each over fifteen minutes. Attempts count, not only failures: a failure is only known
 * after the password was checked, and the check is what must be rationed. Calls that carry no
 * address (an in-process caller, not the network) are limited by account only.
 */
@injectable()
export class LimitSignIns implements ActionMiddleware {
  private readonly limits: ActionMiddleware[];

  constructor(server: HeraldServer) {
    const { SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_ATTEMPTS_PER_ADDRESS } = readSettings(settings, server.config);
    const PerAccount = rateLimit({
      name: "sign-in-per-account",
      limit: SIGN_IN_ATTEMPTS_PER_ACCOUNT,
      windowMs: FIFTEEN_MINUTES,
      by: (_connection, params) => (typeof params.email === "string" ? accountKey(params.email) : undefined),
    });
    const PerAddress = rateLimit({
      name: "sign-in-per-address",
      limit: SIGN_IN_ATTEMPTS_PER_ADDRESS,
      windowMs: FIFTEEN_MINUTES,
      by: (connection) => connection.remoteAddress,
    });
    this.limits = [new PerAddress(server), new PerAccount(server)];
  }

  async runBefore(params: Record<string, unknown>, connection: Connection): Promise<void> {
    for (const limit of this.limits) await limit.runBefore!(params, connection);
  }
}
