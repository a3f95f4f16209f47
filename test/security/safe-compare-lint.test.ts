import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPOSITORY_ROOT, typeScriptFiles } from "../support/source-files";
import { plainSecretComparisons } from "./support/secret-comparisons";

/** Every secret comparison in the code base goes through safeCompare: a plain `===` on a secret is a timing side channel. */
const root = REPOSITORY_ROOT;
const SCANNED = ["src", "sample-app"];


test("no source file compares a secret with ===, !==, == or !=", () => {
  const findings = SCANNED.flatMap((folder) => typeScriptFiles(join(root, folder))).flatMap((file) =>
    plainSecretComparisons(readFileSync(file, "utf8"), file).map(({ line, text }) => `${relative(root, file)}:${line}: ${text}`),
  );
  expect(findings).toEqual([]);
});

/** The shape of sample-app's RequireApiKey, where neither compared name looks like a secret. */
const API_KEY_MIDDLEWARE = `
export const API_KEY_HEADER = "x-api-key";
export class RequireApiKey {
  private readonly expected: string | undefined;
  constructor(config: HeraldConfig) {
    const key = readSettings(settings, config).ADMIN_API_KEY;
    if (key !== undefined && key.length < MIN_KEY_LENGTH) throw tooShort();
    this.expected = key;
  }
  async runBefore(_params: unknown, connection: Connection): Promise<void> {
    const presented = connection.headers[API_KEY_HEADER];
    if (this.expected === undefined || presented === undefined || COMPARISON) throw denied();
  }
}`;

const withComparison = (comparison: string): string => API_KEY_MIDDLEWARE.replace("COMPARISON", comparison);

describe("the check itself", () => {
  test.each([
    "if (token === expected) return true;",
    "if (apiKey !== request.headers['x-api-key']) throw denied();",
    "return provided === this.secret;",
    "if (params.password === user.password) login();",
    'const ok = connection.headers["x-api-key"] === settings.apiKey;',
    "if (signature !== computeSignature(body)) reject();",
    "if (a == token) return true;",
    "if (a != clientSecret) reject();",
    "const { password } = params;\nif (password !== stored) reject();",
    "const { apiKey: given } = params;\nif (given !== expected) reject();",
    "class A {\n  private hmac = compute();\n  check(given: string) {\n    return given === this.hmac;\n  }\n}",
  ])("flags %s", (source) => {
    expect(plainSecretComparisons(source)).toHaveLength(1);
  });

  test("flags a comparison split over lines, at the line it starts on", () => {
    expect(plainSecretComparisons("const ok =\n  request.token\n    === expected;")).toEqual([
      { line: 2, text: "request.token === expected" },
    ]);
  });

  test("flags the API key middleware comparing by value names, through `key` and `this.expected`", () => {
    expect(plainSecretComparisons(withComparison("presented === this.expected"))).toEqual([
      { line: 12, text: "presented === this.expected" },
    ]);
    expect(plainSecretComparisons(withComparison("this.expected != presented"))).toHaveLength(1);
    expect(plainSecretComparisons(withComparison("!safeCompare(presented, this.expected)"))).toEqual([]);
  });

  test("flags the real API key middleware if its safeCompare became ===", () => {
    const real = readFileSync(join(root, "sample-app/middleware/require-api-key.ts"), "utf8");
    const plain = real.replace("!safeCompare(presented, this.expected)", "presented !== this.expected");
    expect(plain).not.toEqual(real);
    expect(plainSecretComparisons(plain)).toHaveLength(1);
  });

  test.each([
    "if (secret === undefined) secret = generate();",
    'if (typeof token !== "string") return;',
    "if (password.length === 0) throw empty();",
    "if (jsonSchema.secret === true) delete jsonSchema.secret;",
    "if (progressToken !== undefined) report();",
    'if (cookie.kind === "signed") open(cookie.id);',
    "if (safeCompare(token, expected)) return true;",
    "const key = settings.API_KEY;\nif (key !== undefined) use(key);",
    "if (error.type === ErrorType.CONFIG_ERROR) throw error;",
    "if (user.id === other.id) return true;",
    "if (token.status != current.status) retry();",
    "// if (token === expected) is what safeCompare replaces",
    'const hint = "token === expected";',
    "function check(value: string, expected: string) {\n  return value === expected;\n}",
  ])("lets %s through", (source) => {
    expect(plainSecretComparisons(source)).toEqual([]);
  });
});
