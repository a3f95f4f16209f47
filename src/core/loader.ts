import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DependencyContainer } from "tsyringe";
import { rootContainer } from "./container";
import { ErrorType, TypedError } from "./errors";

const LOADABLE = /\.(ts|mts|cts|js|cjs)$/;
const NOT_LOADABLE = /(\.d\.[cm]?ts|\.(test|spec)\.[cm]?[jt]s)$/;

const sources = new WeakMap<object, string>();

/** The file a loaded instance came from, for error messages that name it. */
export function sourceOf(instance: object): string | undefined {
  return sources.get(instance);
}

export function listLoadableFiles(searchDir: string): string[] {
  const root = resolve(searchDir);
  let isDirectory = false;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    return [];
  }
  if (!isDirectory) return [];
  const entries = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((entry) => LOADABLE.test(entry) && !NOT_LOADABLE.test(entry))
    .map((entry) => join(root, entry))
    .sort();
  const withoutCompiledTwins = new Set(entries);
  for (const file of entries) {
    if (file.endsWith(".js") && withoutCompiledTwins.has(file.replace(/\.js$/, ".ts"))) {
      withoutCompiledTwins.delete(file);
    }
  }
  return [...withoutCompiledTwins];
}

function isClass(value: unknown): value is new (...args: any[]) => object {
  return typeof value === "function" && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/**
 * Loads every module under `searchDir`, resolves each exported class through the container
 * (so constructors get their services) and returns the instances, in file order.
 */
export async function globLoader<T = unknown>(
  searchDir: string,
  container: DependencyContainer = rootContainer,
): Promise<T[]> {
  const instances: T[] = [];
  for (const file of listLoadableFiles(searchDir)) {
    let moduleExports: Record<string, unknown>;
    try {
      // require, not import(): the CommonJS hooks of ts-jest and SWC load .ts files; Node's ESM loader would not.
      moduleExports = require(file) as Record<string, unknown>;
    } catch (cause) {
      throw new TypedError({
        message: `Could not load ${file}: ${(cause as Error)?.message ?? cause}`,
        type: ErrorType.SERVER_INITIALIZATION,
        cause,
      });
    }
    const seen = new Set<unknown>();
    for (const [exportName, exported] of Object.entries(moduleExports)) {
      if (!isClass(exported) || seen.has(exported)) continue;
      seen.add(exported);
      let instance: object;
      try {
        instance = container.resolve(exported);
      } catch (cause) {
        throw new TypedError({
          message: `Could not instantiate ${exportName} from ${file}: ${(cause as Error)?.message ?? cause}`,
          type: ErrorType.SERVER_INITIALIZATION,
          cause,
        });
      }
      sources.set(instance, file);
      instances.push(instance as T);
    }
  }
  return instances;
}
