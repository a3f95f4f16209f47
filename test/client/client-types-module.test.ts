import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { herald } from "../support/cli";
import { makeScratchDir, removeScratchDir, REPO_ROOT } from "../support/scratch-apps";

/**
 * The type module herald/client is typed by, written by the real `herald` executable. The sample
 * app's is committed (the client's type tests use it): it must be what the generator writes today.
 */
let scratch: string;
beforeAll(() => {
  scratch = makeScratchDir();
});
afterAll(() => removeScratchDir(scratch));

test("herald generate client-types writes the sample app's module exactly as committed", async () => {
  const out = join(scratch, "sample-app-client.d.ts");
  const run = await herald(["generate", "client-types", "--out", out, "-q"], { cwd: REPO_ROOT });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`wrote ${relative(join(REPO_ROOT, "sample-app"), out)}: the types of 12 action(s) for herald/client\n`);
  const committed = readFileSync(join(REPO_ROOT, "sample-app/herald-client.d.ts"), "utf8");
  // `herald generate client-types` at the repository's root writes sample-app/herald-client.d.ts again.
  expect(readFileSync(out, "utf8")).toBe(committed);
});

test("the module lists the actions served over HTTP or WebSocket, each with its route, and none other", () => {
  const module = readFileSync(join(REPO_ROOT, "sample-app/herald-client.d.ts"), "utf8");
  const names = [...module.matchAll(/^ {2}"([^"]+)": \{$/gm)].map(([, name]) => name);
  expect(names).toEqual(["exports:start", "message:create", "messages:export", "messages:list", "session:create", "session:destroy", "session:view", "status", "tasks:watch", "user:create", "user:edit", "user:view"]);
  expect(module).toContain('http: { method: "GET"; route: "/user/{user}" };');
  // Recorded in the server's log only: a client never receives it.
  expect(module).not.toContain("CONNECTION_CLIENT_GONE");
  expect(module).toContain('  "messages": { message: components["schemas"]["channel.messages"]; presence: false };');
});

test("herald generate without a name, for a generator that needs one, says so", async () => {
  const run = await herald(["generate", "action", "-q"], { cwd: REPO_ROOT });
  expect(run.code).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_REQUIRED", key: "name" });
  expect(JSON.parse(run.stdout).error.message).toContain("herald generate action needs a name, e.g. herald generate action todo:create");
});

test("a channel family named by a RegExp opens AppChannels to any name, beside the ones listed by name", async () => {
  // The CLI, not the generator in Jest: openapi-typescript loads an ES module by require, which Jest
  // allows only on Node.js 24.9 and newer.
  const out = join(scratch, "websocket-client.d.ts");
  const run = await herald(["generate", "client-types", "--out", out, "-q"], { cwd: join(REPO_ROOT, "test/fixtures/apps/websocket") });
  expect(run.code).toBe(0);
  const module = readFileSync(out, "utf8");
  const channels = module.slice(module.indexOf("export interface AppChannels"));
  expect(channels).toContain('  "lobby": { message: unknown; presence: false };');
  expect(channels).toContain("  [channel: string]: { message: unknown; presence: boolean };");
});

test("a recursive schema's definitions become components of their own, referred to by name", async () => {
  const out = join(scratch, "openapi-client.d.ts");
  const run = await herald(["generate", "client-types", "--out", out, "-q"], { cwd: join(REPO_ROOT, "test/fixtures/apps/openapi") });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const module = readFileSync(out, "utf8");
  expect(module).toContain('root: components["schemas"]["tree:save.params.__schema0"];');
  expect(module).toContain('children?: components["schemas"]["tree:save.params.__schema0"][];');
  // `$defs` is no param the caller sends.
  expect(module).not.toContain("$defs");
});
