import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { sourceHash } from "../core/source-hash";

/** Where `herald build` keeps the app's compiled modules, relative to its root. */
export const COMPILE_CACHE_FILE = join(".herald", "compile-cache.json");

const CACHE_FORMAT = 1;

/** One compiled module: the hash of its source and what SWC made of it (null: loaded as written). */
export interface CompiledModule {
  hash: string;
  code: string | null;
  map?: string;
}

interface CacheFile {
  format: number;
  compiler: string;
  modules: Record<string, CompiledModule>;
}

export function compileCachePath(appRoot: string): string {
  return join(appRoot, COMPILE_CACHE_FILE);
}

function packageVersion(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return "missing";
  }
}

/** The app's tsconfig and the local ones it extends: what decides how SWC compiles. */
function tsconfigTexts(appRoot: string): string[] {
  const texts: string[] = [];
  let file: string | undefined = join(appRoot, "tsconfig.json");
  while (file && existsSync(file) && texts.length < 10) {
    const text: string = readFileSync(file, "utf8");
    texts.push(text);
    const extended: string | undefined = /"extends"\s*:\s*"(\.{1,2}\/[^"]+)"/.exec(text)?.[1];
    file = extended ? resolve(dirname(file), extended.endsWith(".json") ? extended : `${extended}.json`) : undefined;
  }
  return texts;
}

/**
 * What the compiled output depends on besides each source: the compilers' versions, the
 * tsconfig chain and SWC's environment switches. Any change makes the whole cache miss.
 */
export function compilerFingerprint(appRoot: string): string {
  const inputs = {
    format: CACHE_FORMAT,
    herald: (require("../../package.json") as { version: string }).version,
    swc: packageVersion("@swc/core"),
    register: packageVersion("@swc-node/register"),
    tsconfig: tsconfigTexts(appRoot),
    env: [process.env.SWCRC ?? "", process.env.SWC_CONFIG_FILE ?? "", process.env.SWC_NODE_IGNORE_DYNAMIC ?? ""],
  };
  return sourceHash(JSON.stringify(inputs));
}

/** The compiled modules of an app, looked up by file and source. */
export class CompileCache {
  constructor(
    private readonly appRoot: string,
    private readonly modules: Record<string, CompiledModule> = {},
  ) {}

  /** The cache `herald build` wrote for this app, when its compilers and tsconfig are still the same. */
  static read(appRoot: string): CompileCache | undefined {
    let parsed: Partial<CacheFile>;
    try {
      parsed = JSON.parse(readFileSync(compileCachePath(appRoot), "utf8")) as Partial<CacheFile>;
    } catch {
      return undefined;
    }
    if (parsed.format !== CACHE_FORMAT || typeof parsed.modules !== "object" || parsed.modules === null) return undefined;
    if (parsed.compiler !== compilerFingerprint(appRoot)) return undefined;
    return new CompileCache(appRoot, parsed.modules);
  }

  /** The compiled module for `filename` if it was compiled from exactly `source`. */
  lookup(filename: string, source: string): CompiledModule | undefined {
    const entry = this.modules[this.keyOf(filename)];
    return entry && entry.hash === sourceHash(source) ? entry : undefined;
  }

  record(filename: string, source: string, code: string | null, map?: string): void {
    this.modules[this.keyOf(filename)] = { hash: sourceHash(source), code, ...(map ? { map } : {}) };
  }

  get size(): number {
    return Object.keys(this.modules).length;
  }

  /** Writes beside the destination and renames, so a server booting meanwhile reads a whole file. */
  write(): string {
    const path = compileCachePath(this.appRoot);
    mkdirSync(dirname(path), { recursive: true });
    const content: CacheFile = { format: CACHE_FORMAT, compiler: compilerFingerprint(this.appRoot), modules: this.modules };
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify(content), "utf8");
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    return path;
  }

  private keyOf(filename: string): string {
    return relative(this.appRoot, filename);
  }
}
