import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { findAppDir } from "../core/app-config";
import { CompileCache, CompiledModule } from "./compile-cache";
import { compileFailure } from "./compile-failure";
import { installSourceMaps, storedSourceMap, storeSourceMap } from "./compiled-source-maps";
import { cachePackageResolution, isInNodeModules } from "./package-resolution-cache";

/**
 * Lets the CLI load an app's `.ts` files with SWC, which keeps decorator metadata (esbuild-based
 * loaders drop it). The app's own tsconfig is read when it has one; decorators and CommonJS
 * output are forced because the loader `require`s each file and DI needs the metadata.
 *
 * After `herald build`, modules come from the app's compile cache instead: loading TypeScript
 * and SWC costs more at boot than the whole app does. A file changed since the build (or never
 * built) is compiled by SWC as before, so the cache can be stale without being wrong.
 */

type Compile = (source: string, filename: string) => string;

interface CompilableModule {
  _compile(code: string, filename: string): unknown;
}

type Loader = (module: CompilableModule, filename: string) => void;

const TYPESCRIPT_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"];
/** What @swc-node/register hooks: JavaScript in ESM syntax is turned into CommonJS as well. */
const JAVASCRIPT_EXTENSIONS = [".js", ".jsx", ".mjs", ".cjs", ".es6", ".es"];

// Module._extensions is what require.extensions aliases outside Jest, and what pirates patches.
const extensions = (require("node:module") as { _extensions: Record<string, Loader | undefined> })._extensions;

let swcCompile: Compile | undefined;

/** SWC as @swc-node/register runs it, loaded only when a module has to be compiled. */
function swc(appDir: string | undefined): Compile {
  if (swcCompile) return swcCompile;
  const ts = require("typescript") as typeof import("typescript");
  const { compile } = require("@swc-node/register/register") as {
    compile(source: string, filename: string, options: import("typescript").CompilerOptions): string;
  };
  const { readDefaultTsConfig } = require("@swc-node/register/read-default-tsconfig") as {
    readDefaultTsConfig(path: string): import("typescript").CompilerOptions;
  };
  const appTsconfig = appDir ? join(appDir, "tsconfig.json") : undefined;
  const base = appTsconfig && existsSync(appTsconfig) ? readDefaultTsConfig(appTsconfig) : {};
  const options: import("typescript").CompilerOptions = {
    ...base,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    module: ts.ModuleKind.CommonJS,
    target: base.target ?? ts.ScriptTarget.ES2022,
    esModuleInterop: true,
    // Stack traces name the lines of the app's .ts files, whatever its tsconfig says of maps for tsc.
    sourceMap: true,
  };
  installSourceMaps();
  swcCompile = (source, filename) => {
    try {
      return compile(source, filename, { ...options });
    } catch (thrown) {
      throw compileFailure(thrown);
    }
  };
  return swcCompile;
}

/** Whether a file is the app's own JavaScript, or TypeScript wherever it is: what the compile cache holds. */
function appModuleTest(appDir: string): (filename: string) => boolean {
  const root = `${resolve(appDir)}${sep}`;
  return (filename) => filename.startsWith(root) || TYPESCRIPT_EXTENSIONS.some((extension) => filename.endsWith(extension));
}

/**
 * Hooks every extension @swc-node/register hooks; like it (through pirates), files under
 * node_modules and those `handles` declines load as Node would load them.
 */
function hookExtensions(load: Loader, handles: (filename: string) => boolean): void {
  for (const extension of [...TYPESCRIPT_EXTENSIONS, ...JAVASCRIPT_EXTENSIONS]) {
    const plain = extensions[extension] ?? extensions[".js"]!;
    extensions[extension] = (module, filename) =>
      !isInNodeModules(filename) && handles(filename) ? load(module, filename) : plain(module, filename);
  }
}

/** Compiles every module with SWC, as @swc-node/register does; `recorder` keeps the app's modules. */
function registerSwc(appDir: string | undefined, recorder?: { cache: CompileCache; keeps(filename: string): boolean }): void {
  hookExtensions(
    (module, filename) => {
      const source = readFileSync(filename, "utf8");
      const code = swc(appDir)(source, filename);
      if (recorder?.keeps(filename)) {
        recorder.cache.record(filename, source, code === source ? null : code, storedSourceMap(filename));
      }
      module._compile(code, filename);
    },
    () => true,
  );
}

/** Serves modules from the compile cache; SWC compiles the ones it does not hold. */
function registerCompiled(appDir: string, cache: CompileCache): void {
  const isAppModule = appModuleTest(appDir);
  cachePackageResolution(isAppModule);
  hookExtensions(
    (module, filename) => {
      const source = readFileSync(filename, "utf8");
      const compiled: CompiledModule | undefined = cache.lookup(filename, source);
      if (!compiled) return module._compile(swc(appDir)(source, filename), filename);
      if (compiled.map) storeSourceMap(filename, compiled.map);
      module._compile(compiled.code ?? source, filename);
    },
    isAppModule,
  );
}

function isRegistered(): boolean {
  return Boolean(extensions[".ts"]);
}

/** Modules are named by their real paths when loaded, so the app root must be one too. */
function realAppRoot(appDir: string): string {
  try {
    return realpathSync(appDir);
  } catch {
    return resolve(appDir);
  }
}

/** Registers the hook for the app, from its compile cache when `herald build` wrote a current one. */
export function registerTypeScript(appDir: string | undefined = findAppDir()): void {
  if (isRegistered()) return;
  const root = appDir ? realAppRoot(appDir) : undefined;
  const cache = root ? CompileCache.read(root) : undefined;
  if (root && cache) registerCompiled(root, cache);
  else registerSwc(appDir);
}

/**
 * For `herald build`: compiles with SWC and records every module it loads outside
 * node_modules; `write()` on the result stores them as the app's compile cache.
 */
export function registerRecordingTypeScript(appDir: string): CompileCache | undefined {
  if (isRegistered()) return undefined;
  const root = realAppRoot(appDir);
  const cache = new CompileCache(root);
  registerSwc(appDir, { cache, keeps: appModuleTest(root) });
  return cache;
}
