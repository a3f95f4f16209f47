import { sep } from "node:path";

export function isInNodeModules(filename: string): boolean {
  return filename.includes(`${sep}node_modules${sep}`);
}

interface ResolvingModule {
  _resolveFilename(request: string, parent: { path?: string; filename?: string } | undefined, isMain: boolean, options?: object): string;
}

/**
 * Node caches the resolution of a relative require per directory, but resolves a package with
 * `exports` (zod, herald) again for every module that requires it: two lookups through the
 * package's folders and manifest per action file. The app's modules get the same per-directory
 * cache for package names, which Node would answer identically until node_modules changes.
 */
export function cachePackageResolution(isAppModule: (filename: string) => boolean): void {
  const loader = require("node:module") as ResolvingModule;
  const resolveFilename = loader._resolveFilename;
  const resolved = new Map<string, string>();
  loader._resolveFilename = function (request, parent, isMain, options) {
    const directory = parent?.path;
    const fromApp = parent?.filename !== undefined && isAppModule(parent.filename) && !isInNodeModules(parent.filename);
    const packageName = !request.startsWith(".") && !request.startsWith("/") && !request.includes(":");
    if (options !== undefined || directory === undefined || !fromApp || !packageName) {
      return resolveFilename.call(this, request, parent, isMain, options);
    }
    const key = `${directory}\0${request}`;
    let filename = resolved.get(key);
    if (filename === undefined) {
      filename = resolveFilename.call(this, request, parent, isMain);
      resolved.set(key, filename);
    }
    return filename;
  };
}
