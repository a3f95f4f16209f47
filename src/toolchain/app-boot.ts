import type { HeraldServer, ServerOptions } from "../core/server";

/** What a command boots the app with: the server's options, less the built-ins the composition root adds. */
export type AppBootOptions = Omit<ServerOptions, "builtins" | "builtinActions">;

/**
 * Herald's composition root (`src/herald.ts`: every built-in initializer and transport), as the
 * commands that boot the app call it. The entry point hands it in: the composition root includes
 * the CLI transport, so neither that transport nor the toolchain may import it back.
 */
export interface AppBoot {
  createHerald(options: AppBootOptions): HeraldServer;
  startHerald(options: AppBootOptions): Promise<HeraldServer>;
  serveMcpStdio(options: Omit<AppBootOptions, "runMode">): Promise<void>;
}
