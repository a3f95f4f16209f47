import type { Arguments, Argv } from "yargs";
import { z } from "zod";
import { ErrorType, TypedError } from "../../core/errors";
import { validationError } from "../../core/validation";
import { declaredOptions } from "./yargs-internals";

/** Every name the command knows: its flags, the global options and their aliases. */
export function knownNames(command: Argv): Set<string> {
  const options = declaredOptions(command);
  const names = new Set<string>(["_", "$0", ...Object.keys(options.key)]);
  for (const [name, aliases] of Object.entries(options.alias)) for (const alias of [name, ...aliases]) names.add(alias);
  return names;
}

/**
 * A command line with flags the action does not take, or loose words, is refused before boot, so
 * that a misspelt flag is not silently ignored; the error says so as zod says it of a strict object.
 */
export function unknownArgumentsError(argv: Arguments, known: ReadonlySet<string>, commandName: string): TypedError | undefined {
  const help = `"herald ${commandName} --help" lists its flags`;
  const unknown = Object.keys(argv).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const schema = z.strictObject({});
    const parsed = schema.safeParse(Object.fromEntries(unknown.map((name) => [name, true])));
    const { issues } = validationError(schema, parsed.error!, {});
    return new TypedError({
      message: `Unknown flag${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => `--${name}`).join(", ")}: ${help}`,
      type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
      key: unknown[0]!,
      ...(issues ? { issues } : {}),
    });
  }
  const loose = argv._.slice(1).map(String);
  if (loose.length === 0) return undefined;
  return new TypedError({
    message: `Unexpected argument "${loose[0]}": each value follows its --flag; ${help}`,
    type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
  });
}

/** What `herald <word>` says when `word` is neither a framework command nor an action the CLI may call. */
export const UNKNOWN_COMMAND_HINT = '"herald actions" lists the app\'s actions; "herald --help" the other commands';

export function unknownCommandError(word: string, hint: string = UNKNOWN_COMMAND_HINT): TypedError {
  return new TypedError({
    message: `Unknown command "${word}": ${hint}`,
    type: ErrorType.CONNECTION_ACTION_NOT_FOUND,
    key: "command",
    value: word,
  });
}
