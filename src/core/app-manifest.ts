import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** What an app says of itself in its package.json: the nearest one at or above its folder. */
export interface AppManifest {
  name?: string;
  version?: string;
}

const manifests = new Map<string, AppManifest>();

function readManifest(path: string): AppManifest {
  try {
    const { name, version } = JSON.parse(readFileSync(path, "utf8")) as { name?: unknown; version?: unknown };
    return {
      ...(typeof name === "string" && name ? { name } : {}),
      ...(typeof version === "string" && version ? { version } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * The app's own package.json, or its repository's when the app folder has none (the sample app
 * is Herald's); empty when there is none at all or it cannot be read.
 */
export function appManifest(appRoot: string): AppManifest {
  const root = resolve(appRoot);
  let manifest = manifests.get(root);
  if (manifest) return manifest;
  manifest = {};
  for (let dir = root; ; dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (existsSync(path)) {
      manifest = readManifest(path);
      break;
    }
    if (dirname(dir) === dir) break;
  }
  manifests.set(root, manifest);
  return manifest;
}

/** The app's version, for its OpenAPI document, `status` and MCP's server info: "0.0.0" when it has none. */
export function appVersion(appRoot: string): string {
  return appManifest(appRoot).version ?? "0.0.0";
}
