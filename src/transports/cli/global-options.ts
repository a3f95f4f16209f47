import type { Argv } from "yargs";

/**
 * The options every command takes, `-q` and `--verbose`: declared by the program, and by the
 * running server when it reads a forwarded action command's flags, so that both know the same names.
 */
export function declareGlobalOptions(program: Argv): Argv {
  return program
    .option("q", { alias: "quiet", type: "boolean", describe: "Suppress logs: stdout is only the JSON result", global: true })
    .option("verbose", {
      type: "boolean",
      describe: "Say on stderr whether an action ran in this process or on the app's running server",
      global: true,
    });
}
