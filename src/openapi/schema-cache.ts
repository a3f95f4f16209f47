import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { JSONSchema } from "./json-schema";

/** Where an app keeps its schema cache, relative to its root. */
export const OPENAPI_CACHE_FILE = join(".herald", "openapi-cache.json");

const CACHE_FORMAT = 1;

interface CacheFile {
  format: number;
  hash: string;
  schemas: Record<string, JSONSchema>;
}

export function openApiCachePath(appRoot: string): string {
  return join(appRoot, OPENAPI_CACHE_FILE);
}

/**
 * Writes the schemas and the hash they were generated for to `path`, creating its folder. The
 * file is written beside its destination and renamed over it, so that a server booting at the
 * same moment reads either the old cache or the new one, never half of one.
 */
export async function writeSchemasCache(path: string, hash: string, schemas: Record<string, JSONSchema>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const content: CacheFile = { format: CACHE_FORMAT, hash, schemas };
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, "utf8");
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * The schemas cached at `path` when they were generated for `hash`; undefined when the file is
 * missing, unreadable, not a cache file, or written for another action set.
 */
export async function loadCachedSchemas(path: string, hash: string): Promise<Record<string, JSONSchema> | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return undefined;
  }
  if (!isCacheFile(parsed) || parsed.format !== CACHE_FORMAT || parsed.hash !== hash) return undefined;
  return parsed.schemas;
}

function isCacheFile(value: unknown): value is CacheFile {
  const candidate = value as Partial<CacheFile> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.hash === "string" &&
    typeof candidate.schemas === "object" &&
    candidate.schemas !== null &&
    !Array.isArray(candidate.schemas) &&
    Object.values(candidate.schemas).every((schema) => typeof schema === "object" && schema !== null)
  );
}
