import { execFile } from "node:child_process";
import { join } from "node:path";

const root = join(__dirname, "../..");

function node(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { cwd: root }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout))),
  );
}

test("after the build, require('herald') and require('herald/testing') resolve from the repository root", async () => {
  const out = await node([
    "-e",
    "const h = require('herald'); const t = require('herald/testing'); console.log(JSON.stringify([typeof h.HeraldServer, typeof h.TypedError, h.HTTP_METHOD.GET, typeof t.useTestServer, t.HOOK_TIMEOUT]))",
  ]);
  expect(JSON.parse(out)).toEqual(["function", "function", "GET", "function", 60000]);
});

test("import('herald') works from an ES module too", async () => {
  const out = await node([
    "--input-type=module",
    "-e",
    "const h = await import('herald'); const t = await import('herald/testing'); console.log(JSON.stringify([typeof h.safeCompare, typeof t.waitFor]))",
  ]);
  expect(JSON.parse(out)).toEqual(["function", "function"]);
});

test("the package declares the herald executable and both entry points", () => {
  const manifest = require("../../package.json");
  expect(manifest.name).toBe("herald");
  expect(manifest.bin).toEqual({ herald: "dist/cli-entry.js" });
  expect(Object.keys(manifest.exports)).toEqual(expect.arrayContaining([".", "./testing"]));
});

test("the parts Herald wires itself stay out of the public surface", async () => {
  const internals = [
    "HttpInitializer",
    "WebSocketInitializer",
    "SessionsInitializer",
    "ChannelBroker",
    "ChannelSubscriptions",
    "readHttpSettings",
    "encodeSessionData",
    "StatusAction",
    "flattenHeaders",
  ];
  const out = await node(["-e", `const h = require('herald'); console.log(JSON.stringify(${JSON.stringify(internals)}.filter((name) => name in h)))`]);
  expect(JSON.parse(out)).toEqual([]);
});
