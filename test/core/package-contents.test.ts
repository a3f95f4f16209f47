import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(__dirname, "../..");

interface PackReport {
  name: string;
  version: string;
  files: { path: string }[];
}

/** What `npm pack` would put in the published tarball (the build is run by the suite's global setup). */
function packed(): Promise<PackReport> {
  return new Promise((resolve, reject) => {
    execFile("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, timeout: 60_000 }, (error, stdout) => {
      if (error) return reject(error);
      resolve((JSON.parse(stdout) as PackReport[])[0]!);
    });
  });
}

test("the package holds the build with its types, the templates and its papers, and nothing of the repository besides", async () => {
  const paths = (await packed()).files.map((file) => file.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      "package.json",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli-entry.js",
      "dist/testing/index.js",
      "dist/testing/index.d.ts",
      "dist/toolchain/index.js",
      "dist/toolchain/index.d.ts",
      "dist/client/index.d.ts",
      "dist/client/esm/index.js",
      "schematics/app/herald.config.ts.tpl",
      "schematics/action/action.ts.tpl",
    ]),
  );
  const outside = paths.filter((path) => !/^(dist|schematics)\//.test(path) && !["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(path));
  expect(outside).toEqual([]);
  expect(paths.filter((path) => path.endsWith(".tsbuildinfo"))).toEqual([]);
  // Only the templates of generated tests end in .test.ts.tpl; no test of Herald's own is shipped.
  expect(paths.filter((path) => /\.test\.[jt]s$/.test(path))).toEqual([]);
});

test("its metadata says what it is, under which license, for which Node.js, with its executable and types", () => {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  expect(manifest).toMatchObject({
    name: "herald",
    description: expect.stringMatching(/\w/),
    license: "MIT",
    keywords: expect.arrayContaining(["mcp", "zod"]),
    engines: { node: expect.stringMatching(/^>=22/) },
    bin: { herald: "dist/cli-entry.js" },
    types: "dist/index.d.ts",
  });
  expect(manifest.private).toBeUndefined();
  expect(readFileSync(join(root, "CHANGELOG.md"), "utf8")).toContain(`## ${manifest.version}`);
});
