import { existsSync, readdirSync } from "node:fs";
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
  /** `postgres` (the default): the built-in database, embedded PGlite or PostgreSQL; `none`: no database. */
  database?: "postgres" | "none";
  force?: boolean;
  dryRun?: boolean;
  /** `git init` in the app's folder, unless it is inside a git work tree already or git is not on PATH; default true. */
  git?: boolean;
}

// npm's rules for a new package name: lower case, URL-safe, at most 214 characters.
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

const DATABASE_CONFIG = `
  // TypeORM over the entities and migrations folders: PostgreSQL with DATABASE_URL, else the embedded PGlite.
  database: { entities: "entities", migrations: "migrations" },`;

/** npm leaves `.gitignore` out of published packages, so such templates are stored without their dot. */
const targetName = (templatePath: string) =>
  templatePath.replace(/\.tpl$/, "").replace(/^gitignore$/, ".gitignore").replace(/^env\.example$/, ".env.example");

/**
 * How the app depends on TypeORM when it has the database: on the very copy herald uses. With
 * herald linked from a checkout (`file:<dir>`), npm would install a second TypeORM beside the
 * checkout's, and TypeScript would refuse the app's DataSource where herald expects its own.
 */
function typeormSpec(heraldSpec: string, appRoot: string): string {
  const linked = /^file:(.+)$/.exec(heraldSpec)?.[1];
  if (linked) {
    const checkoutCopy = join(linked, "node_modules", "typeorm");
    if (existsSync(resolve(appRoot, checkoutCopy))) return `file:${checkoutCopy}`;
  }
  return manifest.dependencies["typeorm"]!;
}

/**
 * PGlite loads Node's own modules with `import()`, which Jest's module sandbox runs only under
 * this flag; the warning it brings says nothing to the app's author.
 */
const JEST_WITH_DYNAMIC_IMPORT = "node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js";

function packageJson(name: string, heraldSpec: string, typeorm: string | undefined): string {
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
      test: typeorm ? JEST_WITH_DYNAMIC_IMPORT : "jest",
      build: "herald build",
      typecheck: "tsc --noEmit",
    },
    ...(manifest.engines ? { engines: manifest.engines } : {}),
    dependencies: { herald: heraldSpec, ...(typeorm ? { typeorm } : {}), ...pick(manifest.dependencies, ["zod"]) },
    // Node.js itself, as the repository brings it: the app's scripts run on a version Herald supports.
    devDependencies: pick(manifest.devDependencies, ["@types/jest", "@types/node", "jest", "node", "ts-jest", "typescript"]),
    // npm runs no install script it was not allowed: the node package's fetches the binary.
    allowScripts: { node: true },
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
  const withDatabase = (options.database ?? "postgres") === "postgres";
  const values = {
    appName: name,
    databaseConfig: withDatabase ? DATABASE_CONFIG : "",
    databaseSection: withDatabase ? renderSchematic("app-parts/database-readme.md.tpl", { appName: name }) : "",
  };
  const heraldSpec = options.heraldSpec ?? defaultHeraldSpec();
  const templates = (folder: string) =>
    readdirSync(join(SCHEMATICS_DIR, folder), { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".tpl"))
      .map((path) => ({ path: targetName(path), content: renderSchematic(join(folder, path), values) }));
  const files: GeneratedFile[] = [
    { path: "package.json", content: packageJson(name, heraldSpec, withDatabase ? typeormSpec(heraldSpec, root) : undefined) },
    ...[
      ...templates("app"),
      // What an app with the built-in database has beside the rest.
      ...(withDatabase ? templates("app-database") : []),
    ].sort((one, other) => one.path.localeCompare(other.path)),
  ];
  const writeOptions = { force: options.force ?? false, dryRun: options.dryRun ?? false };
  const report = writePlannedFiles(planFiles(root, files, writeOptions), writeOptions);
  if (options.dryRun) return report;
  const initialized = options.git !== false && initGitRepository(root) ? "initialized a git repository\n" : "";
  const where = relative(process.cwd(), root) || ".";
  return `${report}${initialized}\nNext:\n  cd ${where}\n  npm install\n  npm start\n`;
}
