import type { Argv } from "yargs";
import { CONNECTION_TYPE, ExitCode } from "../../core/constants";
import { uniqueId } from "../../core/unique-id";
import { Connection } from "../../core/connection";
import type { ActionResult } from "../../core/action-result";
import type { DispatchedStream } from "../../core/dispatched-stream";
import type { ErrorBody } from "../../core/error-body";
import type { RegisteredAction } from "../../core/registry";
import type { HeraldServer } from "../../core/server";
import { declareActionFlags } from "./action-flags";
import { flagsFromInputs } from "./flags";
import { idempotencyKeyFromFlags, paramsFromFlags } from "./action-arguments";
import { terminalInput } from "./terminal-input";
import type { CommandOutput } from "../../toolchain/command-output";

function printDocument(output: CommandOutput, document: object, pretty: boolean): void {
  output.write(`${JSON.stringify(document, null, pretty ? 2 : undefined)}\n`);
}

function printError(output: CommandOutput, body: ErrorBody & { replayed?: true }, pretty: boolean): ExitCode {
  printDocument(output, body, pretty);
  return ExitCode.error;
}

/**
 * `{"response": …}` from the response's JSON text: as it is, or parsed to be indented. An answer
 * given again to a retry with its idempotency key says `"replayed": true` first.
 */
function printResponse(output: CommandOutput, text: string, pretty: boolean, replayed: boolean): void {
  if (pretty) printDocument(output, replayed ? { replayed, response: JSON.parse(text) } : { response: JSON.parse(text) }, pretty);
  else output.write(`{${replayed ? `"replayed":true,` : ""}"response":${text}}\n`);
}

/** A streaming action's values, one `{"chunk": …}` document each, as they are yielded; then `{"response": null}`. */
async function printStream(output: CommandOutput, stream: DispatchedStream, pretty: boolean): Promise<void> {
  for await (const text of stream) {
    if (pretty) printDocument(output, { chunk: JSON.parse(text) }, pretty);
    else output.write(`{"chunk":${text}}\n`);
  }
  printDocument(output, { response: null }, pretty);
}

/**
 * Prints the dispatcher's answer as the one JSON document on stdout: `{"response": …}` or
 * `{"error": …}`. A streaming action's values come first, one `{"chunk": …}` document each, as
 * they are yielded.
 */
export async function printResult(output: CommandOutput, result: ActionResult, options: { pretty: boolean }): Promise<ExitCode> {
  const { pretty } = options;
  const { answer } = result;
  switch (answer.kind) {
    case "error":
      return printError(output, result.replayed ? { ...answer.body, replayed: true } : answer.body, pretty);
    case "stream":
      try {
        await printStream(output, answer.stream, pretty);
      } catch (thrown) {
        // The dispatcher has logged how the stream ended.
        return printError(output, answer.stream.errorBody(thrown), pretty);
      }
      return ExitCode.success;
    case "json":
      printResponse(output, answer.text, pretty, result.replayed === true);
      return ExitCode.success;
    case "framed":
      // The command line frames nothing itself: every answer comes encoded.
      throw new Error(`${result.actionName}: a command line answer cannot be framed`);
  }
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
      const params = paramsFromFlags(flags, argv);
      const idempotencyKey = idempotencyKeyFromFlags(argv);
      const pretty = Boolean(process.stdout.isTTY);
      const requestId = uniqueId();
      let code: ExitCode = ExitCode.error;
      try {
        await server.start();
        // A form is filled in at a terminal only: piped, stdin is data and no one is there to answer.
        const terminal = process.stdin.isTTY && process.stderr.isTTY ? { input: process.stdin, output: process.stderr } : undefined;
        const connection = new Connection({
          type: CONNECTION_TYPE.cli,
          id: requestId,
          requestId,
          callerInput: terminalInput(terminal, process.cwd()),
          ...(terminal ? {} : { cannotAsk: "over cli without a terminal" }),
        });
        const result = await server.runAction(registered.name, params, connection, idempotencyKey === undefined ? {} : { idempotencyKey });
        code = await printResult(output, result, { pretty });
      } finally {
        await server.stop().catch((error: unknown) => server.logger.error({ err: error }, "stop failed"));
      }
      output.exit(code);
    },
  );
}
