import yargs, { type Arguments, type Options } from "yargs";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { declareActionFlags } from "./action-flags";
import { flagsFromInputs } from "./flags";
import { declareGlobalOptions } from "./global-options";

/** The raw params an action command's flags carry: each of the action's fields that was given. */
export function paramsFromFlags(flags: Record<string, Options>, argv: Arguments): Record<string, unknown> {
  const params: Record<string, unknown> = Object.create(null);
  for (const field of Object.keys(flags)) if (argv[field] !== undefined) params[field] = argv[field];
  return params;
}

/**
 * The raw params of `herald <action> …args`, read as the CLI's own program reads them (the same
 * flags, the same refusal of an unknown flag or a loose word): for a command the CLI sent on before
 * it loaded the app, which therefore could not know the action's flags.
 */
export async function parseActionArguments(registered: RegisteredAction, args: readonly string[]): Promise<Record<string, unknown>> {
  const flags = flagsFromInputs(registered.action.inputs);
  let params: Record<string, unknown> = Object.create(null);
  await declareGlobalOptions(yargs([registered.name, ...args]))
    .parserConfiguration({ "camel-case-expansion": false })
    .help(false)
    .version(false)
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new TypedError({ message, type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION });
    })
    .command(
      registered.name,
      false,
      (command) => declareActionFlags(command, flags, registered.name),
      (argv) => {
        params = paramsFromFlags(flags, argv);
      },
    )
    .parseAsync();
  return params;
}
