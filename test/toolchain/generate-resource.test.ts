import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "pg";
import { englishPlural } from "../../src/toolchain/generate/plural";
import { resourceGenerator } from "../../src/toolchain/generate/resource-generator";
import { herald } from "../support/cli";
import { copyFixtureApp, linkHerald, listFiles, makeScratchDir, removeScratchDir, REPO_ROOT, run } from "../support/scratch-apps";
import { POSTGRES_URL, usePostgresSchema } from "../sample-app/support/postgres";

// One app made by `herald new` (with the built-in database), installed once; the resources below
// are generated into it, and its own `npm test` then runs on PGlite and on PostgreSQL.
let scratch: string;
let appDir: string;

const postgres = usePostgresSchema("generated_resource");

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = join(scratch, "notes-app");
  const created = await herald(["new", "notes-app", "--herald", `file:${REPO_ROOT}`], { cwd: scratch });
  if (created.code !== 0) throw new Error(`herald new failed:\n${created.stdout}\n${created.stderr}`);
  linkHerald(appDir);
}, 120_000);

afterAll(() => removeScratchDir(scratch));

const read = (path: string) => readFileSync(join(appDir, path), "utf8");
const migrationOf = (plural: string) => listFiles(appDir).find((path) => new RegExp(`^migrations/\\d{13}-create-${plural}\\.ts$`).test(path));

/** A run of the whole app's tests: bounded by npm's exit, which a stuck test cannot delay past this. */
const NPM_TEST_TIMEOUT = 420_000;

test("the resource generator's only own flag, --plural, is proven here", () => {
  // test/toolchain/generate.test.ts leaves the resource type and its flags to this file.
  expect(Object.keys(resourceGenerator.options ?? {})).toEqual(["plural"]);
});

test.each([
  ["note", "notes"],
  ["blog-post", "blog-posts"],
  ["category", "categories"],
  ["company-policy", "company-policies"],
  ["day", "days"],
  ["box", "boxes"],
  ["bus", "buses"],
  ["match", "matches"],
  ["wish", "wishes"],
  ["waltz", "waltzes"],
])("the plural of %s is %s by the English rules on its last word", (singular, plural) => {
  expect(englishPlural(singular)).toBe(plural);
});

test("herald generate resource note writes the entity, its migration, schemas, actions and their test", async () => {
  const generated = await herald(["generate", "resource", "note"], { cwd: appDir });
  expect(generated.stderr).toBe("");
  expect(generated.code).toBe(0);
  const migration = migrationOf("notes");
  expect(migration).toBeDefined();
  expect(generated.stdout).toBe(
    ["entities/note.ts", migration, "schemas/note.ts", "actions/note.ts", "test/actions/note.test.ts"].map((path) => `created ${path}\n`).join(""),
  );
  const timestamp = /(\d{13})/.exec(migration!)![1];

  expect(read("entities/note.ts")).toMatch(/@Entity\(\{ name: "notes" \}\)\nexport class Note \{/);
  expect(read(migration!)).toContain(`export class CreateNotes${timestamp} implements MigrationInterface {\n  name = "CreateNotes${timestamp}";`);
  expect(read(migration!)).toContain('await queryRunner.dropTable("notes");');
  expect(read("schemas/note.ts")).toContain("export const zNoteSchema = zodFromEntity(Note);");
  const actions = read("actions/note.ts");
  for (const [method, route, name] of [
    ["POST", "/notes", "note:create"],
    ["GET", "/notes", "note:list"],
    ["GET", "/notes/:id", "note:view"],
    ["PATCH", "/notes/:id", "note:edit"],
    ["DELETE", "/notes/:id", "note:delete"],
  ]) {
    expect(actions).toMatch(new RegExp(`@Web\\(\\{ route: "${route}", method: HTTP_METHOD\\.${method} \\}\\)\\nexport class Note\\w+ implements Action \\{\\n  name = "${name}";`));
  }
  expect(actions.match(/errors = noteNotFoundErrors;/g)).toHaveLength(3);
  expect(actions).toContain('import { DataSource } from "typeorm";');
  expect(read("test/actions/note.test.ts")).toContain('useTestServer({ appDir: join(__dirname, "../..") });');
});

test("--plural names its routes, table and migration; the name stays the actions' group and the class", async () => {
  const generated = await herald(["g", "resource", "blog-post", "--plural", "blog-entries"], { cwd: appDir });
  expect(generated.code).toBe(0);
  expect(read("entities/blog-post.ts")).toMatch(/@Entity\(\{ name: "blog_entries" \}\)\nexport class BlogPost \{/);
  expect(read(migrationOf("blog-entries")!)).toMatch(/export class CreateBlogEntries\d{13} implements MigrationInterface/);
  const actions = read("actions/blog-post.ts");
  expect(actions).toContain('@Web({ route: "/blog-entries/:id", method: HTTP_METHOD.PATCH })\nexport class BlogPostEdit implements Action {\n  name = "blog-post:edit";');
  expect(actions).toContain("outputs = z.object({ blogEntries: z.array(zBlogPostSchema), pagination: paginationOutputs });");
});

test("--no-test writes the resource without its test; a plural after a consonant and y is -ies", async () => {
  const generated = await herald(["g", "resource", "category", "--no-test"], { cwd: appDir });
  expect(generated.code).toBe(0);
  expect(generated.stdout).not.toContain("test/");
  expect(listFiles(appDir)).not.toContain("test/actions/category.test.ts");
  expect(read("entities/category.ts")).toContain('@Entity({ name: "categories" })');
  expect(read("actions/category.ts")).toContain('route: "/categories"');
});

test("--dry-run prints the files and writes nothing", async () => {
  const before = listFiles(appDir);
  const dryRun = await herald(["g", "resource", "box", "--dry-run"], { cwd: appDir });
  expect(dryRun.code).toBe(0);
  expect(dryRun.stdout).toContain("--- would create entities/box.ts\n");
  expect(dryRun.stdout).toMatch(/--- would create migrations\/\d{13}-create-boxes\.ts\n/);
  expect(dryRun.stdout).toContain('@Web({ route: "/boxes/:id", method: HTTP_METHOD.DELETE })');
  expect(listFiles(appDir)).toEqual(before);
});

test("a second generation is refused without --force; with it, the same files are written again, the migration too", async () => {
  const before = listFiles(appDir);
  const original = read("actions/note.ts");
  writeFileSync(join(appDir, "actions/note.ts"), "// edited by hand\n");
  try {
    const refused = await herald(["g", "resource", "note"], { cwd: appDir });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.message).toContain(`${migrationOf("notes")}, schemas/note.ts, actions/note.ts, test/actions/note.test.ts already exist; use --force`);
    expect(read("actions/note.ts")).toBe("// edited by hand\n");

    const forced = await herald(["g", "resource", "note", "--force"], { cwd: appDir });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`overwrote ${migrationOf("notes")}\n`);
    expect(listFiles(appDir)).toEqual(before);
    expect(read("actions/note.ts")).toBe(original);
  } finally {
    writeFileSync(join(appDir, "actions/note.ts"), original);
  }
}, 120_000);

test.each([
  [["date"], 'Refusing the name "date": its entity class Date would hide the Date the generated files use'],
  [["blog/post"], 'Refusing the name "blog/post": a resource is one word in kebab-case'],
  [["migration"], 'Refusing the plural "migrations": TypeORM keeps its own table "migrations"'],
  [["person", "--plural", "two words"], "Invalid --plural two words: give one word in kebab-case"],
])("refuses %j, saying why, and writes nothing", async (args, reason) => {
  const before = listFiles(appDir);
  const refused = await herald(["g", "resource", ...args], { cwd: appDir });
  expect(refused.code).toBe(1);
  const { error } = JSON.parse(refused.stdout);
  expect(error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION" });
  expect(error.message).toContain(reason);
  expect(error.message).toContain("Nothing was written.");
  expect(refused.stderr).toBe("");
  expect(listFiles(appDir)).toEqual(before);
});

test("an app without the built-in database is told to add it, and nothing is written", async () => {
  const plainApp = copyFixtureApp("generate", scratch);
  const before = listFiles(plainApp);
  const refused = await herald(["g", "resource", "note"], { cwd: plainApp });
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout).error).toMatchObject({
    type: "CONFIG_ERROR",
    key: "database",
    message: "herald generate resource needs the built-in database: add `database: { entities: \"entities\", migrations: \"migrations\" }` to herald.config.ts (docs/database.md). Nothing was written.",
  });
  expect(listFiles(plainApp)).toEqual(before);
});

/** The suites and counts of the generated app's Jest run: its hello and database tests, and the two resources' (category has none). */
function expectAllPassed(stderr: string): void {
  for (const suite of ["test/actions/hello.test.ts", "test/database.test.ts", "test/actions/note.test.ts", "test/actions/blog-post.test.ts"]) {
    expect(stderr).toContain(`PASS ${suite}`);
  }
  expect(stderr).toMatch(/Tests:\s+16 passed, 16 total/);
}

test("npm test (tsc --noEmit, then Jest) passes on the embedded database", async () => {
  const tested = await run("npm", ["test"], { cwd: appDir, timeout: NPM_TEST_TIMEOUT });
  if (tested.code !== 0) throw new Error(`npm test failed:\n${tested.stdout}\n${tested.stderr}`);
  expect(tested.stdout).toContain("> tsc --noEmit");
  expectAllPassed(tested.stderr);
}, NPM_TEST_TIMEOUT + 30_000);

async function rowsIn(table: string): Promise<number> {
  const client = new Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(`SELECT count(*) AS count FROM "${postgres.schema}"."${table}"`);
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}

test("its tests pass on PostgreSQL too, and again over the rows the first run left", async () => {
  // The type check ran above: Jest alone here (--ignore-scripts skips pretest).
  for (const round of [1, 2]) {
    const tested = await run("npm", ["test", "--ignore-scripts"], { cwd: appDir, env: { DATABASE_URL: postgres.url }, timeout: NPM_TEST_TIMEOUT });
    if (tested.code !== 0) throw new Error(`npm test on PostgreSQL (round ${round}) failed:\n${tested.stdout}\n${tested.stderr}`);
    expectAllPassed(tested.stderr);
  }
  // The runs used the test's own schema: they left their notes and blog posts there.
  expect(await rowsIn("notes")).toBeGreaterThan(0);
  expect(await rowsIn("blog_entries")).toBeGreaterThan(0);
}, 2 * NPM_TEST_TIMEOUT + 30_000);
