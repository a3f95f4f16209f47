import { dirname, join, relative, sep } from "node:path";
import type { ResolvedAppConfig } from "../../core/app-config";
import type { GeneratedNames } from "./names";
import type { GeneratorContext } from "./plugin-generator";
import { renderTemplate } from "./templates";

const toPosix = (path: string) => path.split(sep).join("/");

/** A relative import specifier, as TypeScript wants it: `./x` or `../x`, no extension. */
export function importPath(fromFile: string, toFile: string): string {
  const path = toPosix(relative(dirname(fromFile), toFile)).replace(/\.[cm]?tsx?$/, "");
  return path.startsWith(".") ? path : `./${path}`;
}

/** The folder path from a file's folder up to `root`, for `join(__dirname, …)` in templates. */
export function pathToRoot(fromFile: string, root: string): string {
  return toPosix(relative(dirname(fromFile), root)) || ".";
}

export function createGeneratorContext(
  names: GeneratedNames,
  app: ResolvedAppConfig,
  options: Readonly<Record<string, unknown>>,
): GeneratorContext {
  return {
    names,
    app,
    options,
    render: renderTemplate,
    testPathFor: (sourcePath) => join(app.tests, relative(app.root, sourcePath)).replace(/\.[cm]?tsx?$/, ".test.ts"),
    importPath,
  };
}
