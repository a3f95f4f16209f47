import type { Argv, Options } from "yargs";
import { knownNames, unknownArgumentsError } from "./unknown-arguments";

/** The flag a command's retry carries to be answered once, whatever its action's fields (docs/idempotency.md). */
export const IDEMPOTENCY_KEY_FLAG = "idempotency-key";

const IDEMPOTENCY_KEY_OPTION: Options = {
  type: "string",
  describe: "Run once for this key: a retry with the same key and flags prints the first run's answer",
};

/**
 * Declares an action command's flags so that yargs only turns them into raw values: its types,
 * strictness and number parsing would check them first, differently from the action's schema,
 * which checks them in the dispatcher as it does on every other transport.
 */
export function declareActionFlags(command: Argv, flags: Record<string, Options>, commandName: string): Argv {
  command.options({ ...flags, [IDEMPOTENCY_KEY_FLAG]: IDEMPOTENCY_KEY_OPTION }).strict(false).parserConfiguration({ "camel-case-expansion": false, "parse-numbers": false });
  // The flags' descriptions carry their types (flagsFromInputs); @types/yargs lacks this method.
  (command as Argv & { usageConfiguration(config: { "hide-types": boolean }): Argv }).usageConfiguration({ "hide-types": true });
  const known = knownNames(command);
  // Before yargs' own checks, which trip over a flag named after an Object member (--constructor.x).
  command.middleware((argv) => {
    const refused = unknownArgumentsError(argv, known, commandName);
    if (refused) throw refused;
  }, true);
  return command;
}
