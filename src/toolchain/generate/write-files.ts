import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { ErrorType, TypedError } from "../../core/errors";
import type { GeneratedFile } from "./plugin-generator";

export interface WriteOptions {
  /** Print what would be written; write nothing. */
  dryRun?: boolean;
  /** Overwrite existing files; without it an existing file is never touched. */
  force?: boolean;
}

export interface PlannedFile {
  /** Relative to the app root, with "/" separators. */
  path: string;
  absolutePath: string;
  content: string;
  exists: boolean;
}

/**
 * Resolves each file inside `root` and checks, before anything is written, that none escapes
 * it and that none exists unless `force`: a generation writes all of its files or none.
 */
export function planFiles(root: string, files: readonly GeneratedFile[], options: WriteOptions): PlannedFile[] {
  const planned = files.map((file) => {
    const absolutePath = resolve(root, file.path);
    const inside = relative(root, absolutePath);
    if (!inside || inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside)) {
      throw new TypedError({
        message: `Refusing to write ${absolutePath}: it is outside the app at ${root}. Nothing was written.`,
        type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
        key: "path",
        value: file.path,
      });
    }
    return { path: inside.split(sep).join("/"), absolutePath, content: file.content, exists: existsSync(absolutePath) };
  });
  const existing = planned.filter((file) => file.exists);
  if (existing.length && !options.force) {
    throw new TypedError({
      message: `${existing.map((file) => file.path).join(", ")} already exist${existing.length === 1 ? "s" : ""}; use --force to overwrite. Nothing was written.`,
      type: ErrorType.CONNECTION_CONFLICT,
      key: "path",
      value: existing.map((file) => file.path),
    });
  }
  return planned;
}

/** Writes the planned files (or describes them with `dryRun`) and returns what it printed. */
export function writePlannedFiles(planned: readonly PlannedFile[], options: WriteOptions): string {
  if (options.dryRun) {
    return planned
      .map((file) => `--- would ${file.exists ? "overwrite" : "create"} ${file.path}\n${file.content.replace(/\n?$/, "\n")}`)
      .join("");
  }
  for (const file of planned) {
    mkdirSync(dirname(file.absolutePath), { recursive: true });
    // "wx" fails rather than overwrite a file that appeared since the plan was made.
    writeFileSync(file.absolutePath, file.content, { flag: options.force ? "w" : "wx" });
  }
  return planned.map((file) => `${file.exists ? "overwrote" : "created"} ${file.path}\n`).join("");
}
