import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { waitFor } from "herald/testing";
import { WebSocket } from "ws";
import { useChromium } from "../support/chromium";
import { herald } from "../support/cli";
import { freePort } from "../support/free-port";
import { npmStart, REPO_ROOT, run } from "../support/scratch-apps";
import { usePostgresSchema } from "../sample-app/support/postgres";

/**
 * A newcomer's first hours on Herald's packed tarball, outside the repository, as the README shows
 * them: `npm pack`, `herald new --herald file:<tarball>`, `npm install`, a resource generated and
 * tested on both databases, a setting in `.env`, `npm run dev` with its welcome page, the new
 * actions called over every transport, and saves of every kind served. Nothing resolves from this
 * checkout; the other dependencies come from the npm registry (or npm's cache of it).
 */
let scratch: string;
let appDir: string;
let tarball: string;
const postgres = usePostgresSchema("newcomer");
const browser = useChromium();

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

/** The app's own herald, run as `npx herald` would run it. */
function appHerald(args: string[]) {
  // In development, as the newcomer's shell is: Jest's NODE_ENV=test would give the command a database of its own in memory.
  return run(process.execPath, [join(appDir, "node_modules/herald/dist/cli-entry.js"), ...args], { cwd: appDir, env: { NODE_ENV: "development" }, timeout: 120_000 });
}

test("the app depends on the tarball, which npm installed as a package of its own, with one TypeORM and the Node.js it runs on", () => {
  const manifest = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8"));
  expect(manifest.dependencies.herald).toBe(`file:${tarball}`);
  const installed = JSON.parse(readFileSync(join(appDir, "node_modules/herald/package.json"), "utf8"));
  expect(installed.name).toBe("herald");
  const entries = readdirSync(join(appDir, "node_modules/herald"));
  expect(entries).toEqual(expect.arrayContaining(["CHANGELOG.md", "LICENSE", "README.md", "dist", "package.json", "schematics"]));
  for (const absent of ["src", "test", "sample-app", "docs", "bench"]) expect(entries).not.toContain(absent);
  // npm shared the app's TypeORM with herald: no second copy beneath herald.
  expect(readdirSync(join(appDir, "node_modules/herald")).includes("node_modules") && readdirSync(join(appDir, "node_modules/herald/node_modules")).includes("typeorm")).toBe(false);
  expect(readdirSync(join(appDir, "node_modules/.bin"))).toContain("node");
});

test("herald generate resource note writes its entity, migration, actions and tests", async () => {
  const generated = await appHerald(["generate", "resource", "note"]);
  if (generated.code !== 0) throw new Error(`generate failed:\n${generated.stdout}\n${generated.stderr}`);
  expect(generated.stdout).toContain("created actions/note.ts");
  expect(generated.stdout).toContain("created entities/note.ts");
}, 120_000);

test("its tests, the resource's among them, pass with npm test on the embedded database", async () => {
  const tested = await run("npm", ["test"], { cwd: appDir, timeout: 600_000 });
  if (tested.code !== 0) throw new Error(`npm test failed:\n${tested.stdout}\n${tested.stderr}`);
  expect(tested.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
  expect(tested.stderr).toContain("test/actions/note.test.ts");
}, 600_000);

test("and on PostgreSQL, with DATABASE_URL", async () => {
  const tested = await run("npm", ["test"], { cwd: appDir, env: { DATABASE_URL: postgres.url }, timeout: 600_000 });
  if (tested.code !== 0) throw new Error(`npm test on PostgreSQL failed:\n${tested.stdout}\n${tested.stderr}`);
  expect(tested.stderr).toContain("test/actions/note.test.ts");
}, 600_000);

describe("npm run dev", () => {
  let dev: Awaited<ReturnType<typeof npmStart>>;
  beforeAll(async () => {
    // A setting in .env, which every command reads: the app's name as the server reports it.
    writeFileSync(join(appDir, ".env"), "NAME=corner-shop\n");
    // A port of its own rather than PORT=0, which each reload would answer with another free port.
    dev = await npmStart(appDir, "dev", { PORT: String(await freePort()) });
  }, 180_000);
  afterAll(() => dev?.stop(), 60_000);

  test("serves the app under the name .env gives it", async () => {
    expect((await (await fetch(`${dev.url}/api/status`)).json()).name).toBe("corner-shop");
  });

  test("shows the welcome page in Chromium, listing the new actions", async () => {
    const page = await browser().newPage();
    try {
      await page.goto(`${dev.url}/`);
      expect(await page.title()).toContain("corner-shop");
      const text = await page.textContent("body");
      for (const action of ["note:create", "note:list", "note:view", "note:edit", "note:delete"]) expect(text).toContain(action);
    } finally {
      await page.close();
    }
  }, 60_000);

  test("serves the new actions over HTTP, WebSocket, the CLI and MCP, on one database", async () => {
    const created = await fetch(`${dev.url}/api/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "from HTTP" }),
    });
    expect(created.status).toBe(200);
    const { note } = await created.json();

    const socket = new WebSocket(`${dev.url.replace(/^http/, "ws")}/ws`);
    const answers: any[] = [];
    socket.on("message", (data) => answers.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    try {
      socket.send(JSON.stringify({ messageType: "action", messageId: "w1", action: "note:view", params: { id: note.id } }));
      await waitFor(() => answers.some((answer) => answer.messageId === "w1"));
      expect(answers.find((answer) => answer.messageId === "w1").response.note.title).toBe("from HTTP");
    } finally {
      socket.close();
    }

    // Beside the running server on the embedded database, the command is the server's to run.
    const edited = await appHerald(["note:edit", "--id", String(note.id), "--title", "from the CLI"]);
    if (edited.code !== 0) throw new Error(`note:edit failed:\n${edited.stdout}\n${edited.stderr}`);
    expect(JSON.parse(edited.stdout).response.note.title).toBe("from the CLI");

    const client = new McpClient({ name: "newcomer", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp`)));
    try {
      const result = await client.callTool({ name: "note-view", arguments: { id: note.id } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent ?? result.content)).toContain("from the CLI");
    } finally {
      await client.close();
    }
  }, 120_000);

  /** Saves hello.ts with `greeting` in its answer, the way `save` writes files, and waits until it is served. */
  async function servedAfter(save: (file: string, content: string) => void, greeting: string): Promise<void> {
    const file = join(appDir, "actions/hello.ts");
    const source = readFileSync(file, "utf8").replace(/`[^`]*\$\{params\.who\}[^`]*`/, `\`${greeting}, \${params.who}!\``);
    expect(source).toContain(greeting);
    save(file, source);
    await waitFor(async () => (await (await fetch(`${dev.url}/api/hello?who=Ada`)).json()).greeting === `${greeting}, Ada!`, {
      timeout: 60_000,
      interval: 200,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${dev.output()}`);
    });
  }

  const atomicSave = (file: string, content: string) => {
    writeFileSync(`${file}.tmp`, content);
    renameSync(`${file}.tmp`, file);
  };
  const inPlaceSave = (file: string, content: string) => writeFileSync(file, content);

  test("serves a save by rename (an editor's atomic save), and every save after it", async () => {
    await servedAfter(atomicSave, "Welcome");
    await servedAfter(inPlaceSave, "Good day");
    await servedAfter(atomicSave, "Hi there");
    await servedAfter(inPlaceSave, "Howdy");
  }, 240_000);
});
