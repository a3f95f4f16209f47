import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * herald/client runs in browsers: its built modules import nothing but each other (no Node.js
 * built-in, no dependency, nothing of the server), which the client's tsconfig cannot see. The
 * browser build (ES modules, `dist/client/esm`) names each module with its `.js`, as a browser
 * resolves nothing else.
 */
const built = join(__dirname, "../../dist/client");

function imported(folder: string, pattern: RegExp): string[] {
  const modules = readdirSync(folder).filter((file) => file.endsWith(".js"));
  expect(modules).toContain("index.js");
  return modules.flatMap((file) => [...readFileSync(join(folder, file), "utf8").matchAll(pattern)].map(([, target]) => `${file} → ${target}`));
}

test("the built herald/client requires only its own modules", () => {
  const required = imported(built, /require\(["']([^"']+)["']\)/g);
  expect(required.filter((line) => !/ → \.\/[\w-]+\.js$/.test(line))).toEqual([]);
  expect(required.length).toBeGreaterThan(0);
});

test("the browser build imports only its own modules, each by its file name", () => {
  const imports = imported(join(built, "esm"), /^(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gm);
  expect(imports.filter((line) => !/ → \.\/[\w-]+\.js$/.test(line))).toEqual([]);
  expect(imports.length).toBeGreaterThan(0);
});
