import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";

/** The files read, in order: a later one's value wins over an earlier one's. */
export function envFileNames(nodeEnv: string): string[] {
  return [".env", `.env.${nodeEnv}`, ".env.local"];
}

function parsedFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const parsed = parseEnv(readFileSync(path, "utf8"));
  return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * The app's settings from `.env`, then `.env.<NODE_ENV>`, then `.env.local` in its folder (read
 * with Node's own parser), under the real environment: a variable the environment has is never
 * taken from a file. NODE_ENV itself comes from the environment, else from `.env`, else is
 * `development`.
 */
export function withEnvFiles(appDir: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base = parsedFile(join(appDir, ".env"));
  const nodeEnv = env.NODE_ENV ?? base.NODE_ENV ?? "development";
  const fromFiles: Record<string, string> = { ...base };
  for (const name of envFileNames(nodeEnv).slice(1)) Object.assign(fromFiles, parsedFile(join(appDir, name)));
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(fromFiles)) if (merged[name] === undefined) merged[name] = value;
  return merged;
}

/**
 * Fills `process.env` with what the app's env files set and the environment does not: code of the
 * app that reads `process.env` itself sees the same settings as Herald.
 */
export function loadEnvFilesIntoProcess(appDir: string): void {
  const merged = withEnvFiles(appDir, process.env);
  for (const [name, value] of Object.entries(merged)) if (process.env[name] === undefined) process.env[name] = value;
}
