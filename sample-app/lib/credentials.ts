import type { Repository } from "typeorm";
import { User } from "../entities/user";
import { hashPassword, verifyPassword } from "./passwords";

let decoyHash: Promise<string> | undefined;

/**
 * The user with this e-mail address and password, or null. Exactly one scrypt runs either way —
 * against a decoy hash when no user has the address — so the time taken does not tell an
 * unknown address from a wrong password.
 */
export async function checkCredentials(users: Repository<User>, email: string, password: string): Promise<User | null> {
  const user = await users.findOneBy({ email: email.toLowerCase() });
  decoyHash ??= hashPassword("decoy: no account has this address");
  const stored = user?.password_hash ?? (await decoyHash);
  const matches = await verifyPassword(password, stored);
  return user && matches ? user : null;
}
