import { relative } from "node:path";
import type { HeraldServer } from "../../core/server";
import { computeActionsHash } from "../../openapi/actions-hash";
import { generateOpenApiSchemas } from "../../openapi/json-schema";
import { openApiCachePath, writeSchemasCache } from "../../openapi/schema-cache";
import { COMPILE_CACHE_FILE, type CompileCache } from "./compile-cache";

export interface BuildReport {
  /** The cache file, relative to the app root. */
  cache: string;
  hash: string;
  schemas: number;
}

export interface CompileReport {
  /** The compile cache file, relative to the app root. */
  cache: string;
  modules: number;
}

/**
 * `herald build`: generates the OpenAPI schemas of every action and writes them to the app's
 * cache, keyed by the actions hash, so a server booting with the same actions skips generating.
 */
export async function writeOpenApiCache(server: HeraldServer): Promise<BuildReport> {
  const path = openApiCachePath(server.app.root);
  const hash = computeActionsHash(server.registry);
  const schemas = generateOpenApiSchemas(server.registry);
  await writeSchemasCache(path, hash, schemas);
  return { cache: relative(server.app.root, path), hash, schemas: Object.keys(schemas).length };
}

/** `herald build`: stores the modules SWC compiled while loading the app, for the next boots. */
export function writeCompileCache(recorded: CompileCache): CompileReport {
  recorded.write();
  return { cache: COMPILE_CACHE_FILE, modules: recorded.size };
}
