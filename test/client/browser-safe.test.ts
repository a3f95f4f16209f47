import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * herald/client runs in browsers: its built modules require nothing but each other (no Node.js
 * built-in, no dependency, nothing of the server), which the client's tsconfig cannot see.
 */
const built = join(__dirname, "../../dist/client");

test("the built herald/client requires only its own modules", () => {
  const modules = readdirSync(built).filter((file) => file.endsWith(".js"));
  expect(modules).toContain("index.js");
  const required = modules.flatMap((file) =>
    [...readFileSync(join(built, file), "utf8").matchAll(/require\(["']([^"']+)["']\)/g)].map(([, target]) => `${file} → ${target}`),
  );
  const outside = required.filter((line) => !/ → \.\/[\w-]+$/.test(line));
  expect(outside).toEqual([]);
  expect(required.length).toBeGreaterThan(0);
});
