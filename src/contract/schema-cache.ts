import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { sourceHash } from "../core/source-hash";
import type { JSONSchema } from "./json-schema";

/** Where an app keeps its schema cache, relative to its root. */
export const OPENAPI_CACHE_FILE = join(".herald", "openapi-cache.json");

/** 2: `responses` (derived from `run`'s return type) and the `sources` they were derived from. */
const CACHE_FORMAT = 2;

interface CacheFile {
  format: number;
  hash: string;
  /** Input schemas by action name. */
  schemas: Record<string, JSONSchema>;
  /** 200 response schemas of actions without `outputs`, from `run`'s return type, by action name. */
  responses: Record<string, JSONSchema>;
  /** The source files `responses` were derived from, relative to the app root, and their hashes. */
  sources: Record<string, string>;
}

/** What `herald build` derived from the actions' code, beside the input schemas. */
export interface CachedResponses {
  responses: Record<string, JSONSchema>;
  sources: Record<string, string>;
}

/** The whole cache of one action set; its `responses` hold while `responsesCurrent` says so. */
export interface LoadedSchemaCache extends CachedResponses {
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
export async function writeSchemasCache(
  path: string,
  hash: string,
  schemas: Record<string, JSONSchema>,
  derived: CachedResponses = { responses: {}, sources: {} },
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const content: CacheFile = { format: CACHE_FORMAT, hash, schemas, responses: derived.responses, sources: derived.sources };
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
  return (await readCacheFile(path, hash))?.schemas;
}

/**
 * The cache at `path` for `hash`, as `loadCachedSchemas` finds it, with the response schemas
 * `herald build` derived and the sources they came from; undefined when there is no usable cache.
 */
export async function loadSchemaCache(path: string, hash: string): Promise<LoadedSchemaCache | undefined> {
  const file = await readCacheFile(path, hash);
  return file && { schemas: file.schemas, responses: file.responses, sources: file.sources };
}

/**
 * Whether every source file the responses were derived from (relative to `appRoot`) still has the
 * hash it had at `herald build`. Asked when the document is first built, not at boot: reading
 * every action's file would cost each boot, and most boots never serve the document.
 */
export function responsesCurrent(appRoot: string, cached: CachedResponses): boolean {
  return Object.entries(cached.sources).every(([source, expected]) => {
    try {
      return sourceHash(readFileSync(resolve(appRoot, source), "utf8")) === expected;
    } catch {
      return false;
    }
  });
}

async function readCacheFile(path: string, hash: string): Promise<CacheFile | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return undefined;
  }
  if (!isCacheFile(parsed) || parsed.format !== CACHE_FORMAT || parsed.hash !== hash) return undefined;
  return parsed;
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
    Object.values(candidate.schemas).every((schema) => typeof schema === "object" && schema !== null) &&
    isRecord(candidate.responses) &&
    Object.values(candidate.responses).every((schema) => typeof schema === "object" && schema !== null) &&
    isRecord(candidate.sources) &&
    Object.values(candidate.sources).every((hash) => typeof hash === "string")
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
