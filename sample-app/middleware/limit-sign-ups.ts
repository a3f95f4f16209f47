import { z } from "zod";
import { ErrorType, HeraldServer, injectable, isTypedError, readSettings } from "herald";
import { ConfiguredRateLimit } from "../lib/configured-rate-limit";

const ONE_HOUR = 60 * 60_000;

export const signUpSettings = z.object({
  SIGN_UPS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
});

/**
 * A taken address is `409`, which tells whoever asks that the address has an account; and every
 * sign-up makes an account. Both are bounded per address: sign-ups that made an account or found
 * the address taken count, an hour at a time, so one client can neither test a list of addresses
 * nor make accounts in bulk. Refused inputs do not count (a typo costs nothing), nor do calls that
 * carry no address (the CLI, in process).
 */
@injectable()
export class LimitSignUpsPerAddress extends ConfiguredRateLimit {
  constructor(server: HeraldServer) {
    super(server, {
      name: "sign-ups-per-address",
      limit: readSettings(signUpSettings, server.config).SIGN_UPS_PER_ADDRESS,
      windowMs: ONE_HOUR,
      by: (connection) => connection.remoteAddress,
      counts: (error) => error === undefined || (isTypedError(error) && error.type === ErrorType.CONNECTION_CONFLICT),
    });
  }
}
