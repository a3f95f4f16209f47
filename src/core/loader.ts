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

/** A class exported by a file under a loaded folder, not built yet. */
export interface ExportedClass {
  readonly type: new (...args: any[]) => object;
  readonly exportName: string;
  readonly file: string;
}

/**
 * Loads every module under `searchDir` and returns the classes they export, in file order, without
 * building any: `sourceOf` names each one's file.
 */
export function loadExportedClasses(searchDir: string): ExportedClass[] {
  const classes: ExportedClass[] = [];
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
      if (!sources.has(exported)) sources.set(exported, file);
      classes.push({ type: exported, exportName, file });
    }
  }
  return classes;
}

/** Resolves `type` through the container; a failure names the class and, when known, its file. */
export function instantiate<T extends object>(
  container: DependencyContainer,
  type: new (...args: any[]) => T,
  exportName = type.name,
  file = sourceOf(type),
): T {
  let instance: T;
  try {
    instance = container.resolve(type);
  } catch (cause) {
    throw new TypedError({
      message: `Could not instantiate ${exportName}${file ? ` from ${file}` : ""}: ${(cause as Error)?.message ?? cause}`,
      type: ErrorType.SERVER_INITIALIZATION,
      cause,
    });
  }
  if (file) sources.set(instance, file);
  return instance;
}

/**
 * Loads every module under `searchDir`, resolves each exported class through the container
 * (so constructors get their services) and returns the instances, in file order.
 */
export async function globLoader<T = unknown>(
  searchDir: string,
  container: DependencyContainer = rootContainer,
): Promise<T[]> {
  return loadExportedClasses(searchDir).map(({ type, exportName, file }) => instantiate(container, type, exportName, file) as T);
}
