import type { Argv } from "yargs";

/*
 * What Herald reads of yargs beyond its declared types, in one place. When a yargs release moves
 * it, this file is what changes; test/transports/cli/yargs-internals.test.ts fails first.
 */

/** The options a command declared: each flag's name in `key`, and its aliases by name. */
export interface DeclaredOptions {
  key: Record<string, unknown>;
  alias: Record<string, string[]>;
}

/** What yargs' `getOptions()` answers (a method @types/yargs does not declare). */
export function declaredOptions(command: Argv): DeclaredOptions {
  return (command as unknown as { getOptions(): DeclaredOptions }).getOptions();
}
