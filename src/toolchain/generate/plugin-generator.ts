import type { ResolvedAppConfig } from "../../core/app-config";
import type { GeneratedNames, NameShape } from "./names";

/** One file a generator wants written. */
export interface GeneratedFile {
  /** Absolute, or relative to the app root. It must stay inside the app root. */
  path: string;
  content: string;
  /** A test file: left out with `--no-test`. */
  test?: boolean;
}

/** A flag a generator adds to `herald generate` (a subset of yargs' option settings). */
export interface GeneratorOption {
  type: "string" | "number" | "boolean";
  describe: string;
  default?: string | number | boolean;
  choices?: readonly (string | number)[];
}

/** What a generator gets to decide what to write. */
export interface GeneratorContext {
  /** The validated name and the forms derived from it. */
  names: GeneratedNames;
  /** The app's folders, from its herald.config.ts. */
  app: ResolvedAppConfig;
  /** The parsed flags of the `generate` command, including the generator's own `options`. */
  options: Readonly<Record<string, unknown>>;
  /** Fills `{{key}}` placeholders; a placeholder without a value throws. */
  render(template: string, values: Readonly<Record<string, string>>): string;
  /** Where the test of a source file goes: the same relative place under the app's tests folder. */
  testPathFor(sourcePath: string): string;
  /** A relative import specifier from one file to another, without the `.ts` extension. */
  importPath(fromFile: string, toFile: string): string;
}

/**
 * What a plugin implements to add `herald generate <type> <name>`. List it in the `plugins` of
 * herald.config.ts; the CLI validates the name, then writes the files `generate` returns under
 * the same rules as the built-in types (`--dry-run`, `--force`, `--no-test`).
 */
export interface PluginGenerator {
  /** The type name on the command line: lower case letters, digits and "-". */
  type: string;
  description: string;
  /** "action": `<group>:<verb>`; "module" (default): a word, optionally nested with "/". */
  nameShape?: NameShape;
  /** Names this type refuses besides JavaScript reserved words, in kebab-case. */
  reservedNames?: readonly string[];
  /** Extra flags, shown in `herald generate --help`. */
  options?: Readonly<Record<string, GeneratorOption>>;
  generate(context: GeneratorContext): readonly GeneratedFile[] | Promise<readonly GeneratedFile[]>;
}

export function isPluginGenerator(value: unknown): value is PluginGenerator {
  const candidate = value as Partial<PluginGenerator> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.type === "string" &&
    typeof candidate.generate === "function"
  );
}
