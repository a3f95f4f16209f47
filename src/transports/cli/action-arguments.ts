import yargs, { type Arguments, type Options } from "yargs";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { declareActionFlags, IDEMPOTENCY_KEY_FLAG } from "./action-flags";
import { flagsFromInputs } from "./flags";
import { declareGlobalOptions } from "./global-options";

/** The raw params an action command's flags carry: each of the action's fields that was given. */
export function paramsFromFlags(flags: Record<string, Options>, argv: Arguments): Record<string, unknown> {
  const params: Record<string, unknown> = Object.create(null);
  for (const field of Object.keys(flags)) if (argv[field] !== undefined) params[field] = argv[field];
  return params;
}

/** The command's `--idempotency-key`, if given; given twice, or without a value, it is refused. */
export function idempotencyKeyFromFlags(argv: Arguments): string | undefined {
  const key = argv[IDEMPOTENCY_KEY_FLAG];
  if (key === undefined) return undefined;
  if (typeof key === "string" && key !== "") return key;
  throw new TypedError({
    message: `--${IDEMPOTENCY_KEY_FLAG} takes one value`,
    type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
    key: "idempotencyKey",
  });
}

/** What `herald <action> …args` asks: its action's raw params, and its idempotency key. */
export interface ActionArguments {
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

/**
 * The raw params of `herald <action> …args`, read as the CLI's own program reads them (the same
 * flags, the same refusal of an unknown flag or a loose word): for a command the CLI sent on before
 * it loaded the app, which therefore could not know the action's flags.
 */
export async function parseActionArguments(registered: RegisteredAction, args: readonly string[]): Promise<ActionArguments> {
  const flags = flagsFromInputs(registered.action.inputs);
  let parsed: ActionArguments = { params: Object.create(null) as Record<string, unknown>, idempotencyKey: undefined };
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
        parsed = { params: paramsFromFlags(flags, argv), idempotencyKey: idempotencyKeyFromFlags(argv) };
      },
    )
    .parseAsync();
  return parsed;
}
