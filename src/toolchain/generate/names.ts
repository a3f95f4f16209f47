import { ErrorType, TypedError } from "../../core/errors";

/**
 * "action" names are `<group>:<verb>` (more `:` parts allowed); "module" names are one word,
 * optionally nested in folders with `/` (`billing/invoice`).
 */
export type NameShape = "action" | "module";

/** The forms of a validated name that templates and file paths use. */
export interface GeneratedNames {
  /** The name as given, e.g. `users:sendEmail` or `billing/invoice`. */
  name: string;
  /** Its parts, split on `:` or `/`. */
  segments: string[];
  /** The parts in kebab-case: the folders and the file name, without extension. */
  fileSegments: string[];
  /** PascalCase of the whole name for actions (`UsersSendEmail`), of the last part otherwise (`Invoice`). */
  pascal: string;
  /** camelCase of the same words (`usersSendEmail`, `invoice`). */
  camel: string;
  /** kebab-case of the last part (`send-email`, `invoice`). */
  kebab: string;
}

/** One part of a name: a letter, then letters, digits, and single "-" or "_" between them. */
export const NAME_PART = /^[a-zA-Z][a-zA-Z0-9]*(?:[-_][a-zA-Z0-9]+)*$/;

// Strict-mode reserved words and the globals that cannot be rebound: a name whose identifier is
// one of them would not compile where the templates use it.
const RESERVED_WORDS = new Set(
  (
    "arguments await break case catch class const continue debugger default delete do else enum eval export " +
    "extends false finally for function if implements import in instanceof interface let new null package " +
    "private protected public return static super switch this throw true try typeof undefined var void while " +
    "with yield"
  ).split(" "),
);

function refuse(name: string, reason: string): never {
  throw new TypedError({
    message: `Refusing the name "${name}": ${reason}. Nothing was written.`,
    type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
    key: "name",
    value: name,
  });
}

/** Splits `sendEmail`, `send-email` and `send_email` into lower-case words. */
export function wordsOf(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function looksLikeTraversal(name: string): boolean {
  return (
    name.includes("\\") ||
    name.includes("\0") ||
    name.startsWith("/") ||
    /^[a-zA-Z]:[\\/]/.test(name) ||
    name.split(/[/:]/).some((part) => part === ".." || part === ".")
  );
}

/**
 * Checks a name given to `herald generate` and derives its forms. A name that could write
 * outside its folder, that has the wrong shape, or whose identifier is a reserved word is
 * refused with a TypedError saying why.
 */
export function parseName(name: string, shape: NameShape, reserved: readonly string[] = []): GeneratedNames {
  if (!name.trim()) refuse(name, "a name is required");
  if (looksLikeTraversal(name)) {
    refuse(name, 'it must not contain "..", ".", "\\" or start with "/", as it would write outside the app\'s folders');
  }
  const segments = name.split(shape === "action" ? ":" : "/");
  if (shape === "action" && segments.length < 2) {
    refuse(name, "an action name has the shape <group>:<verb>, e.g. users:create");
  }
  const badSegment = segments.find((segment) => !NAME_PART.test(segment));
  if (badSegment !== undefined) {
    const example = shape === "action" ? "users:create" : "billing/invoice";
    refuse(
      name,
      `"${badSegment}" is not a valid part: each part starts with a letter, then letters, digits, "-" or "_" (e.g. ${example})`,
    );
  }
  const words = shape === "action" ? segments.flatMap(wordsOf) : wordsOf(segments[segments.length - 1]!);
  const camel = words[0]! + words.slice(1).map(capitalize).join("");
  if (RESERVED_WORDS.has(camel)) refuse(name, `"${camel}" is a reserved word in JavaScript`);
  const fileSegments = segments.map((segment) => wordsOf(segment).join("-"));
  const kebabName = fileSegments.join("-");
  if (reserved.includes(kebabName)) refuse(name, `"${kebabName}" is the name of a part of the framework`);
  return {
    name,
    segments,
    fileSegments,
    pascal: words.map(capitalize).join(""),
    camel,
    kebab: fileSegments[fileSegments.length - 1]!,
  };
}
