/** Names that hold a caller-supplied secret or what it is checked against. */
const SECRET_NAME = /(secret|token|password|passwd|api_?key|credential|signature|hmac)\w*$/i;

/** Operands that are no secret value: literals, and what a type or presence check compares with. */
const NOT_A_VALUE = /^(undefined|null|true|false|NaN|-?\d[\d_.]*|"[^"]*"|'[^']*'|`[^`$]*`|typeof\b.*)$/;

/** An operand next to `===`/`!==`: an identifier path such as `this.apiKey`, `params.password`, `headers["x-api-key"]`. */
const LEFT = /((?:typeof\s+)?[\w$.?\]["'-]+|"[^"]*"|'[^']*')\s*$/;
const RIGHT = /^\s*((?:typeof\s+)?[\w$.?\]["'-]+|"[^"]*"|'[^']*')/;

function isSecretValue(operand: string): boolean {
  const bare = operand.replace(/\?/g, "").replace(/\[["'](.+?)["']\]/g, ".$1");
  if (NOT_A_VALUE.test(bare) || /\.length$/.test(bare) || /\.(type|kind|status)$/.test(bare)) return false;
  return SECRET_NAME.test(bare.replace(/[-]/g, "_"));
}

function isLiteral(operand: string): boolean {
  return NOT_A_VALUE.test(operand.replace(/\?/g, ""));
}

export interface PlainSecretComparison {
  line: number;
  text: string;
}

/**
 * Comparisons with `===` or `!==` of a value named like a secret against another value (not a
 * literal or a type check): each is a timing side channel that `safeCompare` closes.
 */
export function plainSecretComparisons(source: string): PlainSecretComparison[] {
  const found: PlainSecretComparison[] = [];
  source.split("\n").forEach((text, index) => {
    const code = text.replace(/\/\/.*$/, "");
    for (const match of code.matchAll(/[!=]==/g)) {
      const left = LEFT.exec(code.slice(0, match.index))?.[1] ?? "";
      const right = RIGHT.exec(code.slice(match.index + 3))?.[1] ?? "";
      if (isLiteral(left) || isLiteral(right)) continue;
      if (isSecretValue(left) || isSecretValue(right)) found.push({ line: index + 1, text: text.trim() });
    }
  });
  return found;
}
