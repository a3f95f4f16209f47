import { readdirSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { ErrorType, TypedError } from "../core/errors";
import type { GeneratedFile } from "./generate/plugin-generator";
import { renderSchematic, SCHEMATICS_DIR } from "./generate/templates";
import { planFiles, writePlannedFiles } from "./generate/write-files";
import { initGitRepository } from "./git-repository";

interface HeraldManifest {
  version: string;
  engines?: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const manifest: HeraldManifest = require("../../package.json");
const PACKAGE_ROOT = resolve(__dirname, "../..");

export interface NewAppOptions {
  /** The folder to create the app in; it may exist as long as none of the app's files do. */
  dir: string;
  /** The npm package name; the folder's name by default. */
  name?: string;
  /** How the app depends on herald: see `defaultHeraldSpec`; or e.g. `file:../herald`, a tarball, a git URL. */
  heraldSpec?: string;
  force?: boolean;
  dryRun?: boolean;
  /** `git init` in the app's folder, unless it is inside a git work tree already or git is not on PATH; default true. */
  git?: boolean;
}

// npm's rules for a new package name: lower case, URL-safe, at most 214 characters.
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

const TEMPLATE_DIR = join(SCHEMATICS_DIR, "app");

/** npm leaves `.gitignore` out of published packages, so such templates are stored without their dot. */
const targetName = (templatePath: string) =>
  templatePath.replace(/\.tpl$/, "").replace(/^gitignore$/, ".gitignore").replace(/^env\.example$/, ".env.example");

function packageJson(name: string, heraldSpec: string): string {
  const pick = (from: Record<string, string>, names: string[]) =>
    Object.fromEntries(names.map((dependency) => [dependency, from[dependency]!]));
  const content = {
    name,
    version: "0.1.0",
    private: true,
    scripts: {
      start: "herald start",
      dev: "herald dev",
      // ts-jest only transpiles: without this, a misspelt param would pass the tests.
      pretest: "tsc --noEmit",
      test: "jest",
      build: "herald build",
      typecheck: "tsc --noEmit",
    },
    ...(manifest.engines ? { engines: manifest.engines } : {}),
    dependencies: { herald: heraldSpec, ...pick(manifest.dependencies, ["zod"]) },
    devDependencies: pick(manifest.devDependencies, ["@types/jest", "@types/node", "jest", "ts-jest", "typescript"]),
  };
  return `${JSON.stringify(content, null, 2)}\n`;
}

/**
 * How a new app depends on the herald that makes it: on this version from the registry when it
 * was installed as a package (beneath node_modules), else on this very checkout (`file:`), so
 * that an app made from a clone installs without the registry.
 */
export function defaultHeraldSpec(packageRoot = PACKAGE_ROOT): string {
  return packageRoot.split(sep).includes("node_modules") ? `^${manifest.version}` : `file:${packageRoot}`;
}

/** `herald new <dir>`: an app that runs with `npm install && npm start` and passes `npm test`. */
export function createApp(options: NewAppOptions): string {
  const root = resolve(options.dir);
  const name = options.name ?? basename(root);
  if (name.length > 214 || !PACKAGE_NAME.test(name)) {
    throw new TypedError({
      message: `"${name}" is not a valid npm package name (lower case letters, digits, "-", "." or "_"); choose one with --name. Nothing was written.`,
      type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
      key: "name",
      value: name,
    });
  }
  const values = { appName: name };
  const templates = readdirSync(TEMPLATE_DIR, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(".tpl"));
  const files: GeneratedFile[] = [
    { path: "package.json", content: packageJson(name, options.heraldSpec ?? defaultHeraldSpec()) },
    ...templates.sort().map((path) => ({ path: targetName(path), content: renderSchematic(join("app", path), values) })),
  ];
  const writeOptions = { force: options.force ?? false, dryRun: options.dryRun ?? false };
  const report = writePlannedFiles(planFiles(root, files, writeOptions), writeOptions);
  if (options.dryRun) return report;
  const initialized = options.git !== false && initGitRepository(root) ? "initialized a git repository\n" : "";
  const where = relative(process.cwd(), root) || ".";
  return `${report}${initialized}\nNext:\n  cd ${where}\n  npm install\n  npm start\n`;
}
