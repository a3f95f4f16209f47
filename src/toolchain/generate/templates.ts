import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The package's `schematics/` folder. This file sits at the same depth under `src/` (tests)
 * and under `dist/` (the published CLI), and both sit beside `schematics/`.
 */
export const SCHEMATICS_DIR = join(__dirname, "../../../schematics");

const PLACEHOLDER = /\{\{\s*([a-zA-Z][a-zA-Z0-9]*)\s*\}\}/g;

/**
 * Fills `{{key}}` placeholders. A placeholder without a value is an error rather than an empty
 * string, so a template and its generator cannot drift apart silently.
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`The template uses {{${key}}}, which has no value`);
    return value;
  });
}

/** Reads `schematics/<path>` and fills its placeholders. */
export function renderSchematic(path: string, values: Readonly<Record<string, string>>): string {
  return renderTemplate(readFileSync(join(SCHEMATICS_DIR, path), "utf8"), values);
}
