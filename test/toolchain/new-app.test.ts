import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { herald } from "../support/cli";
import type { CliRun } from "../support/cli";
import { linkHerald, listFiles, makeScratchDir, npmStart, removeScratchDir, REPO_ROOT, run } from "../support/scratch-apps";
import { defaultHeraldSpec } from "../../src/toolchain/new-app";

let scratch: string;
let appDir: string;
let created: CliRun;

/**
 * Each flag of `herald new`, with the run that proves it: the app these runs write is the one whose
 * `npm test`, typecheck and `npm start` are checked below.
 */
const flagRuns: Record<string, string[]> = {
  name: ["new", "my-app", "--name", "my-herald-app", "--herald", `file:${REPO_ROOT}`],
  herald: ["new", "my-app", "--name", "my-herald-app", "--herald", `file:${REPO_ROOT}`],
  force: ["new", "my-app", "--name", "my-herald-app", "--herald", `file:${REPO_ROOT}`, "--force"],
  "dry-run": ["new", "other-app", "--dry-run"],
  database: ["new", "plain-app", "--database", "none", "--dry-run"],
  // Run outside this repository (below), where herald new would otherwise make one.
  git: ["new", "untracked-app", "--no-git"],
};

// One app for the whole file, made and installed once; a test that changes it puts it back.
beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = join(scratch, "my-app");
  created = await herald(flagRuns.name!, { cwd: scratch });
  if (created.code !== 0) throw new Error(`herald new failed:\n${created.stdout}\n${created.stderr}`);
  linkHerald(appDir);
}, 120_000);

afterAll(() => removeScratchDir(scratch));

test("every flag of herald new has its run here", async () => {
  const help = await herald(["new", "--help"], { cwd: scratch });
  const flags = [...help.stdout.matchAll(/^\s+(?:-\w, )?--([a-z][a-z-]*)/gm)].map((match) => match[1]!);
  expect(flags.filter((flag) => !["help", "version", "quiet", "verbose"].includes(flag)).sort()).toEqual(Object.keys(flagRuns).sort());
});

test("herald new writes an application", () => {
  expect(created.code).toBe(0);
  expect(created.stdout).toContain("created package.json\n");
  expect(created.stdout).toContain("Next:\n  cd my-app\n  npm install\n  npm start\n");
  expect(listFiles(appDir)).toEqual([
    ".env.example",
    ".gitignore",
    "README.md",
    "actions/hello.ts",
    "herald.config.ts",
    "jest.config.js",
    "package.json",
    "test/actions/hello.test.ts",
    "test/database.test.ts",
    "tsconfig.json",
  ]);
  const manifest = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8"));
  expect(manifest).toMatchObject({
    name: "my-herald-app",
    private: true,
    scripts: { start: "herald start", test: expect.stringMatching(/^node --experimental-vm-modules .* node_modules\/jest\/bin\/jest\.js$/) },
    // The very TypeORM herald uses: a second copy's DataSource would not type-check where herald takes one.
    dependencies: { herald: `file:${REPO_ROOT}`, typeorm: `file:${join(REPO_ROOT, "node_modules/typeorm")}`, zod: expect.any(String) },
    devDependencies: { jest: expect.any(String), node: repoManifest().devDependencies.node, "ts-jest": expect.any(String), typescript: expect.any(String) },
    engines: repoManifest().engines,
  });
  expect(readFileSync(join(appDir, "jest.config.js"), "utf8")).toContain('"ts-jest"');
  expect(readFileSync(join(appDir, "herald.config.ts"), "utf8")).toContain('database: { entities: "entities", migrations: "migrations" },');
  expect(readFileSync(join(appDir, ".gitignore"), "utf8")).toContain(".data/");
});

function repoManifest(): { version: string; engines: Record<string, string>; devDependencies: Record<string, string>; dependencies: Record<string, string> } {
  return JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
}

test("--database none writes an app without the database, TypeORM or the Jest flag it needs", async () => {
  const plain = await herald(flagRuns.database!, { cwd: scratch });
  expect(plain.code).toBe(0);
  expect(plain.stdout).not.toContain("database");
  expect(plain.stdout).not.toContain("typeorm");
  expect(plain.stdout).toContain('"test": "jest"');
  expect(plain.stdout).not.toContain("test/database.test.ts");
});

test("an app depending on a published herald depends on TypeORM's published version, which npm shares with herald", async () => {
  const published = await herald(["new", "published-app", "--herald", "^9.9.9", "--dry-run"], { cwd: scratch });
  expect(published.code).toBe(0);
  expect(published.stdout).toContain(`"typeorm": ${JSON.stringify(repoManifest().dependencies.typeorm)}`);
});

test("made inside this repository, the app has no git repository of its own", () => {
  // Made inside this repository's work tree, it belongs to this repository: no .git of its own.
  expect(created.stdout).not.toContain("initialized a git repository");
  expect(existsSync(join(appDir, ".git"))).toBe(false);
});

describe("its git repository, outside this one", () => {
  let outside: string;
  beforeAll(() => (outside = mkdtempSync(join(tmpdir(), "herald-new-git-"))));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  const git = (args: string[], cwd: string) => run("git", args, { cwd, timeout: 60_000 });

  test("outside any git work tree, herald new makes the app a repository, whose .gitignore leaves out the npm pack tarball", async () => {
    const made = await herald(["new", "alone"], { cwd: outside });
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("created tsconfig.json\ninitialized a git repository\n");
    const app = join(outside, "alone");
    expect(existsSync(join(app, ".git"))).toBe(true);
    writeFileSync(join(app, "alone-0.1.0.tgz"), "");
    expect((await git(["check-ignore", "--quiet", "alone-0.1.0.tgz"], app)).code).toBe(0);
    expect((await git(["check-ignore", "--quiet", "actions/hello.ts"], app)).code).toBe(1);
  });

  test("inside a git work tree (a monorepo), it makes none: the app belongs to that repository", async () => {
    const monorepo = join(outside, "monorepo");
    mkdirSync(monorepo);
    expect((await git(["init", "--quiet"], monorepo)).code).toBe(0);
    const made = await herald(["new", "packages/app"], { cwd: monorepo });
    expect(made.code).toBe(0);
    expect(made.stdout).not.toContain("initialized a git repository");
    expect(existsSync(join(monorepo, "packages/app/package.json"))).toBe(true);
    expect(existsSync(join(monorepo, "packages/app/.git"))).toBe(false);
  });

  test("--no-git makes none", async () => {
    const made = await herald(flagRuns.git!, { cwd: outside });
    expect(made.code).toBe(0);
    expect(made.stdout).not.toContain("initialized a git repository");
    expect(existsSync(join(outside, "untracked-app/package.json"))).toBe(true);
    expect(existsSync(join(outside, "untracked-app/.git"))).toBe(false);
  });

  test("without git on PATH, the app is made all the same, without a repository", async () => {
    const noTools = join(outside, "empty-path");
    mkdirSync(noTools);
    const made = await herald(["new", "gitless"], { cwd: outside, env: { PATH: noTools } });
    expect(made.code).toBe(0);
    expect(made.stdout).not.toContain("initialized a git repository");
    expect(existsSync(join(outside, "gitless/package.json"))).toBe(true);
    expect(existsSync(join(outside, "gitless/.git"))).toBe(false);
  });
});

test("its jest.config.js and tsconfig.json are the ones docs/testing.md shows", () => {
  const page = readFileSync(join(REPO_ROOT, "docs/testing.md"), "utf8");
  for (const file of ["jest.config.js", "tsconfig.json"]) {
    const block = new RegExp("```\\w+\\n// " + file.replace(".", "\\.") + "\\n([\\s\\S]*?)```").exec(page)?.[1];
    expect(block).toBe(readFileSync(join(appDir, file), "utf8"));
  }
});

test("without --herald, an app made from this clone depends on this checkout, and one made by an installed herald on its version", async () => {
  const dryRun = await herald(flagRuns["dry-run"]!, { cwd: scratch });
  expect(dryRun.code).toBe(0);
  expect(dryRun.stdout).toContain(`"herald": ${JSON.stringify(`file:${REPO_ROOT}`)}`);
  const version = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version;
  expect(defaultHeraldSpec(join(scratch, "my-app/node_modules/herald"))).toBe(`^${version}`);
  expect(defaultHeraldSpec(REPO_ROOT)).toBe(`file:${REPO_ROOT}`);
  expect(dryRun.stdout).toContain("--- would create actions/hello.ts");
  expect(listFiles(scratch).some((path) => path.startsWith("other-app"))).toBe(false);
});

test("--force writes the application again over its own files", async () => {
  writeFileSync(join(appDir, "actions/hello.ts"), "// edited by hand\n");
  const forced = await herald(flagRuns.force!, { cwd: scratch });
  expect(forced.code).toBe(0);
  expect(forced.stdout).toContain("overwrote actions/hello.ts\n");
  expect(readFileSync(join(appDir, "actions/hello.ts"), "utf8")).toContain("hello:say");
});

test("its own tests pass with npm test", async () => {
  const tested = await run("npm", ["test"], { cwd: appDir, timeout: 240_000 });
  if (tested.code !== 0) throw new Error(`npm test failed:\n${tested.stdout}\n${tested.stderr}`);
  expect(tested.stderr).toMatch(/Tests:\s+4 passed, 4 total/);
}, 240_000);

test("npm test fails on a type error in an action, before any test runs", async () => {
  const misspelt = join(appDir, "actions/misspelt.ts");
  writeFileSync(
    misspelt,
    readFileSync(join(appDir, "actions/hello.ts"), "utf8")
      .replaceAll("HelloSay", "HelloMisspelt")
      .replace("hello:say", "hello:misspelt")
      .replace('route: "/hello"', 'route: "/misspelt"')
      .replace("params.who", "params.whom"),
  );
  try {
    const tested = await run("npm", ["test"], { cwd: appDir, timeout: 240_000 });
    expect(tested.code).not.toBe(0);
    expect(tested.stdout + tested.stderr).toMatch(/actions\/misspelt\.ts.*error TS\d+: Property 'whom' does not exist/);
    expect(tested.stderr).not.toMatch(/Tests:/);
  } finally {
    rmSync(misspelt);
  }
}, 240_000);

test("it type-checks", async () => {
  const checked = await run("npm", ["run", "typecheck"], { cwd: appDir, timeout: 240_000 });
  if (checked.code !== 0) throw new Error(`tsc failed:\n${checked.stdout}\n${checked.stderr}`);
}, 240_000);

test("npm start serves it", async () => {
  const { url, stop } = await npmStart(appDir);
  try {
    const response = await fetch(`${url}/api/hello?who=Ada`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ greeting: "Hello, Ada!" });
    // The URL its start line prints shows, in development, what the new app serves and how to call it.
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    const page = await home.text();
    expect(page).toContain("<h1>my-herald-app</h1>");
    expect(page).toContain(`<a href="/api/hello"><code>GET /api/hello</code></a>`);
    expect(page).toContain("npx herald hello:say --who world");
  } finally {
    await stop();
  }
}, 120_000);

test("a second herald new into the same folder touches nothing", async () => {
  const before = readFileSync(join(appDir, "actions/hello.ts"), "utf8");
  const again = await herald(["new", "my-app"], { cwd: scratch });
  expect(again.code).toBe(1);
  expect(JSON.parse(again.stdout).error.message).toContain("already exist; use --force to overwrite. Nothing was written.");
  expect(again.stderr).toBe("");
  expect(readFileSync(join(appDir, "actions/hello.ts"), "utf8")).toBe(before);
});

test("the folders its herald.config.ts says are loaded at boot are the ones Herald loads: services/ is not", async () => {
  const config = readFileSync(join(appDir, "herald.config.ts"), "utf8");
  // The keys after the "Loaded at boot" comment, up to the next comment.
  const loadedBlock = /\/\/ Loaded at boot[^\n]*\n(?:\s*\/\/[^\n]*\n)*((?:\s*\w+: "[^"]*",\n)+)/.exec(config)?.[1] ?? "";
  const loaded = [...loadedBlock.matchAll(/(\w+): "([^"]*)"/g)].map((match) => match[2]!);
  expect(loaded).toEqual(["actions", "initializers", "middleware", "channels"]);
  expect(config).toMatch(/Not loaded at boot[^]*services: "services"/);

  // A module that throws when loaded: the command that loads the app fails with it where it is loaded.
  const written: string[] = [];
  const placeThrowing = (folder: string) => {
    mkdirSync(join(appDir, folder), { recursive: true });
    const file = join(appDir, folder, "throws-when-loaded.ts");
    writeFileSync(file, `throw new Error("${folder}/ was loaded");\nexport {};\n`);
    written.push(file);
  };
  try {
    placeThrowing("services");
    const listed = await herald(["actions", "--json"], { cwd: appDir });
    expect({ code: listed.code, stdout: listed.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('"hello:say"') });
    for (const folder of loaded) {
      placeThrowing(folder);
      const refused = await herald(["actions", "--json"], { cwd: appDir });
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).error.message).toContain(`${folder}/ was loaded`);
      rmSync(written.pop()!);
    }
  } finally {
    for (const file of written) rmSync(file, { force: true });
    for (const folder of ["services", "initializers", "middleware", "channels"]) rmSync(join(appDir, folder), { recursive: true, force: true });
  }
}, 120_000);

test("an invalid package name is refused", async () => {
  const refused = await herald(["new", "My App"], { cwd: scratch });
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout).error.message).toContain('"My App" is not a valid npm package name');
  expect(listFiles(scratch).some((path) => path.startsWith("My App"))).toBe(false);
});
