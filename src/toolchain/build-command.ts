import type { Argv } from "yargs";
import { ExitCode } from "../core/constants";
import { loadCliServer, recordCompiledModules, type CliAppOptions } from "./cli-app";
import type { CommandOutput } from "./command-output";

/**
 * `herald build`: the compile and OpenAPI schema caches, so that the server boots without
 * compiling or generating, and the client's types.
 */
export function registerBuildCommand(program: Argv, app: CliAppOptions, quiet: boolean, output: CommandOutput): void {
  program.command("build", "Write the compile and OpenAPI schema caches, so the server boots without compiling or generating, and the client's types", {}, async () => {
    const recorded = app.appDir ? recordCompiledModules(app.appDir) : undefined;
    const server = await loadCliServer({ ...app, quiet });
    // Deferred like the app itself: the OpenAPI helpers load zod's JSON Schema converter.
    const { writeCompileCache, writeOpenApiCache } = require("./build-caches") as typeof import("./build-caches");
    const report = await writeOpenApiCache(server);
    output.write(`wrote ${report.cache}: ${report.schemas} input schema(s), actions hash ${report.hash.slice(0, 12)}\n`);
    output.write(`derived ${Object.keys(report.responses).length} response schema(s) from run's return type\n`);
    for (const warning of report.warnings) output.write(`warning: ${warning}\n`);
    if (recorded) {
      const compiled = writeCompileCache(recorded);
      output.write(`wrote ${compiled.cache}: ${compiled.modules} compiled module(s)\n`);
    }
    const { clientTypesWritten, writeClientTypes } = require("./client-types-command") as typeof import("./client-types-command");
    output.write(clientTypesWritten(await writeClientTypes(server, undefined, report.responses)));
    output.exit(ExitCode.success);
  });
}
