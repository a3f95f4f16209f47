import type { Argv } from "yargs";
import type { AppBoot } from "./toolchain/app-boot";
import { createProgram, runProgram, type ProgramOptions } from "./transports/cli/program";

/**
 * The composition root, loaded when a command first boots the app: it loads every transport,
 * which `herald --help`, `new` and `generate` have no use for and would wait for.
 */
function compositionRoot(): typeof import("./herald") {
  return require("./herald") as typeof import("./herald");
}

const heraldBoot: AppBoot = {
  createHerald: (options) => compositionRoot().createHerald(options),
  startHerald: (options) => compositionRoot().startHerald(options),
  serveMcpStdio: (options) => compositionRoot().serveMcpStdio(options),
};

/**
 * The `herald` command line with every framework command and one command per action of the app,
 * for an app's own entry point.
 */
export function buildProgram(options: ProgramOptions = {}): Promise<Argv> {
  return createProgram(heraldBoot, options);
}

/** What the `herald` executable runs. */
export function runCli(argv: string[] = process.argv.slice(2)): Promise<void> {
  return runProgram(heraldBoot, argv);
}
