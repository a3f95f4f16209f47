import { join } from "node:path";

/** Where a page loads herald/client from, as an ES module: `import { createClient } from "/herald/client/index.js"`. */
export const CLIENT_MODULE_PATH = "/herald/client";

/**
 * The browser build of herald/client (ES modules, built with the package): the same folder from
 * `src/` and from `dist/`, both two levels below the package root.
 */
export function clientModuleFolder(): string {
  return join(__dirname, "../../..", "dist/client/esm");
}
