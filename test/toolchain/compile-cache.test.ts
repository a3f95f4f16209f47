import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { herald } from "../support/cli";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../support/scratch-apps";

const CACHE = ".herald/compile-cache.json";

interface CacheFile {
  modules: Record<string, { hash: string; code: string | null }>;
}

let scratchDirs: string[] = [];
afterAll(() => scratchDirs.forEach(removeScratchDir));

/** A copy of the cli fixture app after `herald build`. */
async function builtApp(): Promise<{ appDir: string; stdout: string }> {
  const scratch = makeScratchDir();
  scratchDirs.push(scratch);
  const appDir = copyFixtureApp("cli", scratch);
  const build = await herald(["build", "-q"], { cwd: appDir });
  expect(build.code).toBe(0);
  return { appDir, stdout: build.stdout };
}

/** Rewrites the cached output of greet.ts, so a run shows whether the cache or the source was used. */
function alterCachedGreeting(appDir: string): void {
  const path = join(appDir, CACHE);
  const cache = JSON.parse(readFileSync(path, "utf8")) as CacheFile;
  const greet = cache.modules["actions/greet.ts"]!;
  greet.code = greet.code!.replace("Hello, ", "Hi from the cache, ");
  writeFileSync(path, JSON.stringify(cache));
}

async function greet(appDir: string): Promise<string> {
  const run = await herald(["greet:say", "--who", "Ada", "-q"], { cwd: appDir });
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { response: { text: string } }).response.text;
}

test("herald build compiles every module the app loads into .herald/compile-cache.json", async () => {
  const { appDir, stdout } = await builtApp();
  expect(stdout).toContain("wrote .herald/compile-cache.json: 3 compiled module(s)\n");
  const cache = JSON.parse(readFileSync(join(appDir, CACHE), "utf8")) as CacheFile;
  expect(Object.keys(cache.modules).sort()).toEqual(["actions/fail.ts", "actions/greet.ts", "herald.config.ts"]);
  expect(cache.modules["actions/greet.ts"]!.code).toContain('require("herald")');
});

test("after a build, commands load the app's modules from the compile cache", async () => {
  const { appDir } = await builtApp();
  alterCachedGreeting(appDir);
  expect(await greet(appDir)).toBe("Hi from the cache, Ada!");
});

test("a source changed since the build is compiled afresh", async () => {
  const { appDir } = await builtApp();
  alterCachedGreeting(appDir);
  const source = join(appDir, "actions/greet.ts");
  writeFileSync(source, readFileSync(source, "utf8").replace("Hello, ", "Howdy, "));
  expect(await greet(appDir)).toBe("Howdy, Ada!");
});

test("a tsconfig changed since the build makes the whole cache miss", async () => {
  const { appDir } = await builtApp();
  alterCachedGreeting(appDir);
  writeFileSync(join(appDir, "tsconfig.json"), `${JSON.stringify({ compilerOptions: { target: "ES2022" } })}\n`);
  expect(await greet(appDir)).toBe("Hello, Ada!");
});

test("without a build, the app is compiled at load and no cache is written", async () => {
  const scratch = makeScratchDir();
  scratchDirs.push(scratch);
  const appDir = copyFixtureApp("cli", scratch);
  expect(await greet(appDir)).toBe("Hello, Ada!");
  expect(existsSync(join(appDir, CACHE))).toBe(false);
});
