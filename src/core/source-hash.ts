import { createHash } from "node:crypto";

/** The fingerprint of a source file's text, by which the build caches know a file has changed. */
export function sourceHash(source: string): string {
  return createHash("sha256").update(source).digest("base64url");
}
