/**
 * Source maps of compiled modules, kept as @swc-node/register keeps them: Node maps stack traces
 * itself under --enable-source-maps, and source-map-support does it otherwise.
 */

let sourceMapsInstalled = false;

function sourcemapSupport(): { installSourceMapSupport(): void; SourcemapMap: Map<string, string> } {
  return require("@swc-node/sourcemap-support") as { installSourceMapSupport(): void; SourcemapMap: Map<string, string> };
}

/** SWC_NODE_SOURCE_MAP_MODE, read as @swc-node/register reads it. */
function storesSourceMaps(): boolean {
  const mode = process.env.SWC_NODE_SOURCE_MAP_MODE?.trim().toLowerCase();
  if (mode === "both" || mode === "store") return true;
  if (mode === "inline" || mode === "none") return false;
  return !process.sourceMapsEnabled;
}

export function installSourceMaps(): void {
  if (sourceMapsInstalled || !storesSourceMaps()) return;
  sourceMapsInstalled = true;
  sourcemapSupport().installSourceMapSupport();
}

export function storeSourceMap(filename: string, map: string): void {
  if (!storesSourceMaps()) return;
  installSourceMaps();
  sourcemapSupport().SourcemapMap.set(filename, map);
}

export function storedSourceMap(filename: string): string | undefined {
  if (!storesSourceMaps()) return undefined;
  return sourcemapSupport().SourcemapMap.get(filename);
}
