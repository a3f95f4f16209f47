import { z } from "zod";

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** "10mb", "512kb", "2048" → bytes: the form every size setting takes. */
export const zByteSize = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, 'must be a size such as "10mb", "512kb" or a number of bytes')
  .transform((text) => {
    const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim())!;
    return Math.floor(Number(amount) * BYTE_UNITS[unit?.toLowerCase() || "b"]!);
  })
  .pipe(z.number().int().min(1));

/** "a, b,c" → ["a", "b", "c"]. */
export const zCommaList = z.string().transform((text) =>
  text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean),
);

function isOrigin(candidate: string): boolean {
  try {
    return new URL(candidate).origin === candidate;
  } catch {
    return false;
  }
}

/** A comma-separated list of exact origins, or "*". */
export const zOriginList = zCommaList.refine((origins) => origins.every((origin) => origin === "*" || isOrigin(origin)), {
  message: 'must be "*" or a comma-separated list of origins such as https://app.example.com',
});
