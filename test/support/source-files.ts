import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The repository's root, for tests that read its source. */
export const REPOSITORY_ROOT = join(__dirname, "../..");

/** Every TypeScript source file under `dir` (declarations, node_modules and dot-folders left out). */
export function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : typeScriptFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}
