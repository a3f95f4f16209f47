import { HeraldServer, injectable, readSettings } from "herald";
import { ConfiguredRateLimit } from "../lib/configured-rate-limit";
import { accountKey, FIFTEEN_MINUTES, PER_ACCOUNT_BUDGET, passwordFailureSettings, wrongPassword } from "../lib/password-failures";

/*
 * Bound password guessing at sign-in: failed sign-ins per account (whoever sends them, so spreading
 * a guess list over many addresses does not help) and per address (so one client cannot try many
 * accounts), each over fifteen minutes. Only failures count, so that users signing in correctly,
 * however often and from however shared an address, are never refused; each sign-in is counted as
 * it starts and taken back when it succeeds, so guesses sent all at once cannot pass the limit
 * together. Calls that carry no address (an in-process caller, not the network) are limited by
 * account only.
 */

/** Failed sign-ins per address, whatever the account. */
@injectable()
export class LimitSignInsPerAddress extends ConfiguredRateLimit {
  constructor(server: HeraldServer) {
    super(server, {
      name: "sign-in-failures-per-address",
      limit: readSettings(passwordFailureSettings, server.config).SIGN_IN_FAILURES_PER_ADDRESS,
      windowMs: FIFTEEN_MINUTES,
      by: (connection) => connection.remoteAddress,
      counts: wrongPassword,
    });
  }
}

/**
 * Wrong passwords per account, whatever the address; a correct sign-in clears the account's count,
 * as Devise's lockable does.
 */
@injectable()
export class LimitSignInsPerAccount extends ConfiguredRateLimit {
  constructor(server: HeraldServer) {
    super(server, {
      name: PER_ACCOUNT_BUDGET,
      limit: readSettings(passwordFailureSettings, server.config).PASSWORD_FAILURES_PER_ACCOUNT,
      windowMs: FIFTEEN_MINUTES,
      by: (_connection, params) => (typeof params.email === "string" ? accountKey(params.email) : undefined),
      counts: wrongPassword,
      resetOnSuccess: true,
    });
  }
}
