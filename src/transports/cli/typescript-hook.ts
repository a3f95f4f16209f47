import { existsSync } from "node:fs";
import { join } from "node:path";
import { findAppDir } from "../../core/app-config";

/**
 * Lets the CLI load an app's `.ts` files with SWC, which keeps decorator metadata (esbuild-based
 * loaders drop it). The app's own tsconfig is read when it has one; decorators and CommonJS
 * output are forced because the loader `require`s each file and DI needs the metadata.
 */
export function registerTypeScript(appDir: string | undefined = findAppDir()): void {
  if (require.extensions[".ts"]) return;
  const ts = require("typescript") as typeof import("typescript");
  const { register } = require("@swc-node/register/register") as {
    register(options: import("typescript").CompilerOptions): () => void;
  };
  const { readDefaultTsConfig } = require("@swc-node/register/read-default-tsconfig") as {
    readDefaultTsConfig(path: string): import("typescript").CompilerOptions;
  };
  const appTsconfig = appDir ? join(appDir, "tsconfig.json") : undefined;
  const base = appTsconfig && existsSync(appTsconfig) ? readDefaultTsConfig(appTsconfig) : {};
  register({
    ...base,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    module: ts.ModuleKind.CommonJS,
    target: base.target ?? ts.ScriptTarget.ES2022,
    esModuleInterop: true,
  });
}
