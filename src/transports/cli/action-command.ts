import type { Argv } from "yargs";
import { CONNECTION_TYPE, ExitCode } from "../../core/constants";
import { Connection } from "../../core/connection";
import { errorBody } from "../../core/error-body";
import type { TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import type { HeraldServer } from "../../core/server";
import { declareActionFlags } from "./action-flags";
import { flagsFromInputs } from "./flags";

export interface CommandOutput {
  write(text: string): void;
  exit(code: ExitCode): void;
}

/** Prints the result as the one JSON document on stdout: `{"response": …}` or `{"error": …}`. */
export function printResult(
  output: CommandOutput,
  server: HeraldServer,
  result: { response?: unknown; error?: TypedError },
  pretty: boolean,
): ExitCode {
  const document = result.error ? errorBody(result.error, server.config.production) : { response: result.response };
  output.write(`${JSON.stringify(document, null, pretty ? 2 : undefined)}\n`);
  return result.error ? ExitCode.error : ExitCode.success;
}

export function registerActionCommand(
  program: Argv,
  registered: RegisteredAction,
  server: HeraldServer,
  output: CommandOutput,
): void {
  const flags = flagsFromInputs(registered.action.inputs);
  program.command(
    registered.name,
    registered.action.description ?? `Run the ${registered.name} action`,
    (command) => declareActionFlags(command, flags, registered.name),
    async (argv) => {
      const params: Record<string, unknown> = Object.create(null);
      for (const field of Object.keys(flags)) if (argv[field] !== undefined) params[field] = argv[field];
      let code: ExitCode = ExitCode.error;
      try {
        await server.start();
        const result = await server.runAction(registered.name, params, new Connection({ type: CONNECTION_TYPE.cli }));
        code = printResult(output, server, result, Boolean(process.stdout.isTTY));
      } finally {
        await server.stop().catch((error: unknown) => server.logger.error({ err: error }, "stop failed"));
      }
      output.exit(code);
    },
  );
}
