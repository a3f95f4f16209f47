import { HeraldServer, injectable, readSettings } from "herald";
import type { User } from "../entities/user";
import { ConfiguredRateLimit } from "../lib/configured-rate-limit";
import { accountKey, FIFTEEN_MINUTES, PER_ACCOUNT_BUDGET, passwordFailureSettings, wrongPassword } from "../lib/password-failures";

/**
 * Wrong current passwords on a password change count against the account's budget of wrong
 * passwords, the one sign-ins spend: a stolen session must not be a way to guess the password
 * without bound. Listed after `RequireSignIn`, whose `currentUser` names the account; a call that
 * changes no password is not limited.
 */
@injectable()
export class LimitCurrentPassword extends ConfiguredRateLimit {
  constructor(server: HeraldServer) {
    super(server, {
      name: PER_ACCOUNT_BUDGET,
      limit: readSettings(passwordFailureSettings, server.config).PASSWORD_FAILURES_PER_ACCOUNT,
      windowMs: FIFTEEN_MINUTES,
      by: (_connection, params) => {
        const user = params.currentUser as User | undefined;
        return params.password === undefined || !user ? undefined : accountKey(user.email);
      },
      counts: wrongPassword,
      resetOnSuccess: true,
    });
  }
}
