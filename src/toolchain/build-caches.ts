import { relative } from "node:path";
import type { HeraldServer } from "../core/server";
import { computeActionsHash } from "../contract/actions-hash";
import { deriveResponseSchemas } from "../contract/derived-responses";
import { generateOpenApiSchemas, type JSONSchema } from "../contract/json-schema";
import { openApiCachePath, writeSchemasCache } from "../contract/schema-cache";
import { COMPILE_CACHE_FILE, type CompileCache } from "./compile-cache";

export interface BuildReport {
  /** The cache file, relative to the app root. */
  cache: string;
  hash: string;
  schemas: number;
  /** The 200 schemas derived from `run`'s return type, by action name. */
  responses: Record<string, JSONSchema>;
  /** One line per action whose return type could not be expressed in full. */
  warnings: string[];
}

export interface CompileReport {
  /** The compile cache file, relative to the app root. */
  cache: string;
  modules: number;
}

/**
 * `herald build`: generates the OpenAPI schemas of every action and writes them to the app's
 * cache, keyed by the actions hash, so a server booting with the same actions skips generating;
 * with them, the 200 schemas of the actions without `outputs`, derived from `run`'s return type by
 * the TypeScript compiler, and the hashes of the files they were derived from.
 */
export async function writeOpenApiCache(server: HeraldServer): Promise<BuildReport> {
  const path = openApiCachePath(server.app.root);
  const hash = computeActionsHash(server.registry);
  const schemas = generateOpenApiSchemas(server.registry);
  const derived = deriveResponseSchemas(server.app.root, server.registry.list());
  await writeSchemasCache(path, hash, schemas, derived);
  return {
    cache: relative(server.app.root, path),
    hash,
    schemas: Object.keys(schemas).length,
    responses: derived.responses,
    warnings: derived.warnings,
  };
}

/** `herald build`: stores the modules SWC compiled while loading the app, for the next boots. */
export function writeCompileCache(recorded: CompileCache): CompileReport {
  recorded.write();
  return { cache: COMPILE_CACHE_FILE, modules: recorded.size };
}
