import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { herald } from "../support/cli";
import { npmStart, REPO_ROOT, run } from "../support/scratch-apps";

/**
 * A new user's app on Herald's packed tarball, outside the repository, as the README's "Your own
 * app" shows it: `npm pack`, `herald new --herald file:<tarball>`, `npm install`, `npm test`,
 * `npm start`. Nothing resolves from this checkout; the other dependencies come from the npm
 * registry (or npm's cache of it).
 */
let scratch: string;
let appDir: string;
let tarball: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "herald-packed-"));
  // The build is Jest's global setup's: the tarball is what `npm pack` makes of it.
  const packed = await run("npm", ["pack", "--ignore-scripts", "--pack-destination", scratch], { cwd: REPO_ROOT, timeout: 120_000 });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  tarball = join(scratch, readdirSync(scratch).find((name) => name.endsWith(".tgz"))!);
  appDir = join(scratch, "shop");
  const created = await herald(["new", appDir, "--herald", `file:${tarball}`], { cwd: scratch });
  if (created.code !== 0) throw new Error(`herald new failed:\n${created.stdout}${created.stderr}`);
  const installed = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: appDir, timeout: 600_000 });
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stdout}\n${installed.stderr}`);
}, 660_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the app depends on the tarball, which npm installed as a package of its own", () => {
  expect(JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")).dependencies.herald).toBe(`file:${tarball}`);
  const installed = JSON.parse(readFileSync(join(appDir, "node_modules/herald/package.json"), "utf8"));
  expect(installed.name).toBe("herald");
  const entries = readdirSync(join(appDir, "node_modules/herald"));
  expect(entries).toEqual(expect.arrayContaining(["CHANGELOG.md", "LICENSE", "README.md", "dist", "package.json", "schematics"]));
  for (const absent of ["src", "test", "sample-app", "docs", "bench"]) expect(entries).not.toContain(absent);
});

test("its own tests pass with npm test", async () => {
  const tested = await run("npm", ["test"], { cwd: appDir, timeout: 300_000 });
  if (tested.code !== 0) throw new Error(`npm test failed:\n${tested.stdout}\n${tested.stderr}`);
}, 300_000);

test("npm start serves it", async () => {
  const { url, stop } = await npmStart(appDir);
  try {
    const response = await fetch(`${url}/api/hello?who=Ada`);
    expect(await response.json()).toEqual({ greeting: "Hello, Ada!" });
    expect((await (await fetch(`${url}/api/status`)).json()).name).toBe("shop");
  } finally {
    await stop();
  }
}, 120_000);
