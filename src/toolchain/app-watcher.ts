import { relative, sep } from "node:path";
import { watch, type FSWatcher } from "chokidar";

/** Folders of an app whose changes are not its code: its data, caches, dependencies and builds. */
export const IGNORED_FOLDERS = new Set([".herald", ".data", "node_modules", "dist", ".git", "coverage"]);

export interface AppWatcher {
  close(): Promise<void>;
}

/**
 * Calls `changed` with the path (relative to `appDir`) of every file written, added or removed
 * beneath `appDir`, however it was written: in place, renamed over (an editor's atomic save,
 * `sed -i`, `mv`), deleted and created again, many at once (a branch checkout), in a new folder.
 * chokidar watches each folder, not each file: Node's recursive `fs.watch` on Linux loses a file
 * once it was renamed over, and every later save of it went unseen. The ignored folders are not
 * watched at all, so `node_modules` costs no watch.
 */
export function watchApp(appDir: string, changed: (file: string) => void): AppWatcher {
  const watcher: FSWatcher = watch(appDir, {
    ignoreInitial: true,
    ignored: (path) => relative(appDir, path).split(sep).some((part) => IGNORED_FOLDERS.has(part)),
  });
  for (const event of ["add", "change", "unlink"] as const) watcher.on(event, (path: string) => changed(relative(appDir, path)));
  return { close: () => watcher.close() };
}
