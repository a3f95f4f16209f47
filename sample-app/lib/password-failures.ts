import { createHash } from "node:crypto";
import { z } from "zod";
import { ErrorType, isTypedError } from "herald";

/** The window of every password limit: a budget is whole again fifteen minutes after its first failure. */
export const FIFTEEN_MINUTES = 15 * 60_000;

export const passwordFailureSettings = z.object({
  PASSWORD_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
});

/**
 * The one budget of wrong passwords per account, whichever action checked the password (a sign-in
 * or the current password of a change): a guess list is not made longer by using both.
 */
export const PER_ACCOUNT_BUDGET = "password-failures-per-account";

/** The counter's key for an account's e-mail address: hashed, so that the rate-limit store (Redis) holds no e-mail addresses. */
export function accountKey(email: string): string {
  return createHash("sha256").update(email.toLowerCase()).digest("base64url");
}

/** A password that did not match: `401` from the password check; other failures are not guesses. */
export function wrongPassword(error: Error | undefined): boolean {
  return isTypedError(error) && error.type === ErrorType.CONNECTION_NOT_AUTHENTICATED;
}
