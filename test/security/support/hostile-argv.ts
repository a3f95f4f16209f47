import fc from "fast-check";
import { hostileCall, nastyString } from "./hostile";

/** The params of a hostile call as text, as a command line would carry them: objects as JSON. */
function flagText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return "[deep]";
  }
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A hostile call's params as `--name=value` flags: arrays as repeated flags. The `=` form keeps a
 * value such as "-h" a value rather than a flag of its own.
 */
function flagsOf(paramsText: string): string[] {
  const params = parsedOrText(paramsText);
  if (typeof params !== "object" || params === null || Array.isArray(params)) return [flagText(params)];
  return Object.entries(params).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((item) => `--${name}=${flagText(item)}`) : [`--${name}=${flagText(value)}`],
  );
}

/** Words that reach a prototype through yargs' dot notation, or confuse its parser. */
const NASTY_ARGUMENTS = [
  "--__proto__.polluted=yes",
  "--__proto__=yes",
  "--constructor.prototype.polluted=yes",
  "--prototype.polluted=yes",
  "--toString=1",
  "--hasOwnProperty=1",
  "--valueOf",
  "--meta.__proto__.polluted=yes",
  "--settings.constructor.prototype.polluted=yes",
  "--address.city=Paris",
  "--tags.0=a",
  "--no-pinned",
  "--no-__proto__",
  "--pinned=maybe",
  "--userId=1e309",
  "--userId=0x10",
  "--page=-1",
  "--limit=NaN",
  "--meta={bad json",
  '--meta=["an","array"]',
  "--meta=null",
  '--address={"__proto__":{"polluted":"yes"}}',
  '--settings={"constructor":{"prototype":{"polluted":"yes"}}}',
  "--unknown-flag=1",
  "-xyz",
  "--",
  "positional",
  "--=",
  "---triple",
];

/** Extra words for a command line: nasty flags, unknown flags with nasty names, and loose values. */
const extraArgument: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_ARGUMENTS) },
  { weight: 1, arbitrary: nastyString.map((name) => `--${name}=1`) },
  { weight: 1, arbitrary: nastyString.map((value) => `--body=${value}`) },
);

/**
 * A word yargs answers with help text or the version instead of a run: a short-flag group holding
 * `h` (a loose value such as "-h" or "-\u0001h" is one), or `--h`, `--help` or `--version`, also with a
 * value or a dot path (`--h.a@b.c=1` makes `h` an object, which is truthy). Asking for help is
 * not hostile input, and its text goes to the console rather than the command's output.
 */
function asksForHelp(word: string): boolean {
  return (/^-[^-]/.test(word) && word.includes("h")) || /^--(h|help|version)([.=]|$)/.test(word);
}

/** `herald <action> …` argv: a hostile call's params as flags, shuffled with nasty extra words. */
export const hostileArgv: fc.Arbitrary<string[]> = fc
  .tuple(
    hostileCall,
    // Mostly none: any unknown flag fails the run before the action's schema sees the values.
    fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(extraArgument, { minLength: 1, maxLength: 3 }) }),
    fc.nat(),
  )
  .map(([{ action, paramsText }, extras, seed]) => {
    const words = [...flagsOf(paramsText), ...extras].filter((word) => !asksForHelp(word));
    // A stable interleaving, so a failing case replays and shrinks the same way.
    const rotated = words.length ? [...words.slice(seed % words.length), ...words.slice(0, seed % words.length)] : words;
    return [action, "-q", ...rotated];
  });
