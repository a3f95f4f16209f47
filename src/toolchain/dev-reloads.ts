import { sep } from "node:path";
import { forgetClasses } from "../core/container";
import { reloadKeeping, releaseKept } from "../core/kept-across-reloads";
import type { HeraldServer } from "../core/server";
import { installSignalHandlers } from "../core/signals";

/** What `herald dev` and the server it runs say to each other over their IPC channel. */
export type DevMessage = { type: "reload" } | { type: "reloaded" } | { type: "reload-failed" };

/**
 * `herald start --dev-reloads`, as `herald dev` runs it: serves the app and, on each `reload`
 * message, stops it, forgets the app's own modules and boots the changed code in this process,
 * so that what the app keeps across reloads (its embedded database) stays open and Herald and the
 * app's dependencies are not loaded again. A boot of changed code that fails is reported and the
 * process waits for the next change; the first boot failing ends it, as `herald start` would.
 */
export async function serveWithReloads(appRoot: string, boot: () => Promise<HeraldServer>): Promise<void> {
  const first = boot();
  let server: HeraldServer | undefined;
  let pending: Promise<unknown> = first.then(
    (booted) => void (server = booted),
    () => undefined,
  );
  let queued = false;
  const say = (line: string) => process.stderr.write(`herald dev: ${line}\n`);
  const sayReleaseFailed = (error: unknown) => say(`what the app kept across the reload failed to close: ${describe(error)}`);

  const reload = async () => {
    try {
      server = await reloadKeeping(
        async () => {
          await server?.stop();
          server = undefined;
          forgetAppModules(appRoot);
        },
        boot,
        sayReleaseFailed,
      );
      process.send?.({ type: "reloaded" } satisfies DevMessage);
    } catch (error) {
      say(`the changed code does not boot; fix it and save again:\n${describe(error)}`);
      process.send?.({ type: "reload-failed" } satisfies DevMessage);
    }
  };
  // Listening before the first boot ends: a change saved meanwhile is not lost.
  process.on("message", (message: DevMessage) => {
    // Reloads run one after the other; changes saved while one waits are served by that one.
    if (message?.type !== "reload" || queued) return;
    queued = true;
    pending = pending.then(() => {
      queued = false;
      return reload();
    });
  });
  // A first boot that fails ends the process, as `herald start` does.
  await first;

  installSignalHandlers({
    get logger() {
      return server?.logger;
    },
    // Once a reload under way has ended, its server stops and what the app kept is released.
    stop: async () => {
      await pending;
      await server?.stop();
      await releaseKept(sayReleaseFailed);
    },
  });
  // herald dev gone without a word (killed): its server goes with it, as on a signal.
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}

/**
 * Drops the app's own modules from the require cache, so that the next boot loads them afresh,
 * and from wherever else the process would keep them: the modules that required them (Herald's
 * loader) list them as children, and the dependency-injection container keeps the classes they
 * export.
 */
function forgetAppModules(appRoot: string): void {
  const prefix = appRoot.endsWith(sep) ? appRoot : `${appRoot}${sep}`;
  const dropped = new Set<NodeJS.Module>();
  const classes = new Set<unknown>();
  for (const [file, module] of Object.entries(require.cache)) {
    if (!module || !file.startsWith(prefix) || file.slice(prefix.length).split(sep).includes("node_modules")) continue;
    dropped.add(module);
    const exported: unknown = module.exports;
    if (typeof exported === "function") classes.add(exported);
    else if (exported && typeof exported === "object") for (const value of Object.values(exported)) if (typeof value === "function") classes.add(value);
    delete require.cache[file];
  }
  for (const module of [...Object.values(require.cache), require.main]) {
    if (module?.children.some((child) => dropped.has(child))) module.children = module.children.filter((child) => !dropped.has(child));
  }
  forgetClasses(classes);
}

/**
 * The error, and where its cause was thrown. A boot's error most often repeats its cause's message
 * ("Could not load actions/x.ts: …", "Initializer "x" failed to start: …"), so then only the
 * cause's frames follow, and a code frame is not shown twice.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  if (!cause?.stack) return error.message;
  if (!error.message.includes(cause.message)) return `${error.message}\n${cause.stack}`;
  const frames = cause.stack.split("\n").filter((line) => /^\s+at /.test(line));
  return [error.message, ...frames].join("\n");
}
