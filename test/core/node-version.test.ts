import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isAtLeast, requiredNodeVersion, unsupportedNodeRefusal } from "../../src/core/node-version";
import { CLI_RUN_TIMEOUT, HERALD_BIN } from "../support/cli";

const AS_NODE_20 = join(__dirname, "../fixtures/node-version-20.cjs");

function herald(args: string[], preload: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...preload, HERALD_BIN, ...args], { timeout: CLI_RUN_TIMEOUT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("the version needed is the one package.json's engines asks for", () => {
  const engines = (JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as { engines: { node: string } }).engines.node;
  expect(engines).toBe(`>=${requiredNodeVersion()}`);
});

test("versions compare by major, minor and patch, as numbers", () => {
  expect(["22.15.0", "22.15.1", "22.23.3", "24.0.0", "v24.21.0", "100.0.0"].filter((version) => isAtLeast(version, "22.15.0"))).toHaveLength(6);
  expect(["20.20.2", "22.14.9", "22.9.0", "v18.0.0", "9.99.99"].filter((version) => isAtLeast(version, "22.15.0"))).toEqual([]);
});

test("an unsupported Node.js is refused in one line naming the version needed and the one running", () => {
  expect(unsupportedNodeRefusal("24.21.0", "22.15.0")).toBeUndefined();
  expect(unsupportedNodeRefusal("20.20.2", "22.15.0")).toMatch(/^herald: Node\.js 22\.15\.0 or newer is needed, and this is Node\.js 20\.20\.2 \(.+\)$/);
});

test("the herald command on Node.js 20 exits 1 with that one line and nothing else; on this Node.js it runs", async () => {
  const refused = await herald(["--version"], ["-r", AS_NODE_20]);
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe("");
  expect(refused.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^herald: Node\.js \d+\.\d+\.\d+ or newer is needed, and this is Node\.js 20\.20\.2/)]);

  const served = await herald(["--version"]);
  expect({ code: served.code, stderr: served.stderr }).toEqual({ code: 0, stderr: "" });
});
