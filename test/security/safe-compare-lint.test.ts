import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { plainSecretComparisons } from "./support/secret-comparisons";

/** Every secret comparison in the code base goes through safeCompare: a plain `===` on a secret is a timing side channel. */
const root = join(__dirname, "../..");
const SCANNED = ["src", "sample-app"];

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : typeScriptFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

test("no source file compares a secret with === or !==", () => {
  const findings = SCANNED.flatMap((folder) => typeScriptFiles(join(root, folder))).flatMap((file) =>
    plainSecretComparisons(readFileSync(file, "utf8")).map(({ line, text }) => `${relative(root, file)}:${line}: ${text}`),
  );
  expect(findings).toEqual([]);
});

describe("the check itself", () => {
  test.each([
    "if (token === expected) return true;",
    "if (apiKey !== request.headers['x-api-key']) throw denied();",
    "return provided === this.secret;",
    "if (params.password === user.password) login();",
    'const ok = connection.headers["x-api-key"] === settings.apiKey;',
    "if (signature !== computeSignature(body)) reject();",
  ])("flags %s", (line) => {
    expect(plainSecretComparisons(line)).toHaveLength(1);
  });

  test.each([
    "if (secret === undefined) secret = generate();",
    'if (typeof token !== "string") return;',
    "if (password.length === 0) throw empty();",
    "if (jsonSchema.secret === true) delete jsonSchema.secret;",
    "if (progressToken !== undefined) report();",
    'if (cookie.kind === "signed") open(cookie.id);',
    "if (safeCompare(token, expected)) return true;",
  ])("lets %s through", (line) => {
    expect(plainSecretComparisons(line)).toEqual([]);
  });
});
