import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Constant-time string equality. Both sides are hashed first so that inputs of different
 * lengths take the same time and leak nothing about the secret's length.
 */
export function safeCompare(a: string, b: string): boolean {
  const left = createHash("sha256").update(String(a)).digest();
  const right = createHash("sha256").update(String(b)).digest();
  return timingSafeEqual(left, right);
}
