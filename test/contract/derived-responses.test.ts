import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { OpenAPIObject, ResponseObject } from "openapi3-ts/oas31";
import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { herald } from "../support/cli";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../support/scratch-apps";

/**
 * `herald build` derives the 200 schema of each action without `outputs` from `run`'s return type
 * and stores it in the schema cache; a booting server uses it while the actions' files are unchanged.
 */

let scratch: string;
let appDir: string;
let buildRun: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  scratch = makeScratchDir();
  appDir = copyFixtureApp("derived-responses", scratch);
  buildRun = await herald(["build", "-q"], { cwd: appDir });
}, 120_000);
afterAll(() => removeScratchDir(scratch));

/** Boots the app, returns its OpenAPI document and what it logged at warn and above. */
async function bootAndFetch(): Promise<{ document: OpenAPIObject; log: string }> {
  const lines: string[] = [];
  const destination = new PassThrough();
  destination.on("data", (chunk: Buffer) => lines.push(chunk.toString("utf8")));
  let server: HeraldServer | undefined;
  try {
    server = await startTestServer({ appDir, env: { LOG_LEVEL: "warn" }, logDestination: destination });
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    return { document: (await response.json()) as OpenAPIObject, log: lines.join("") };
  } finally {
    await server?.stop();
  }
}

function okSchema(document: OpenAPIObject, path: string, method: "get" | "post"): unknown {
  const response = document.paths![path]![method]!.responses!["200"] as ResponseObject;
  return response.content!["application/json"]!.schema;
}

test("herald build says how many response schemas it derived, and warns about the one it could not", () => {
  expect(buildRun.code).toBe(0);
  const lines = buildRun.stdout.split("\n");
  expect(lines).toContain("derived 5 response schema(s) from run's return type");
  const warnings = lines.filter((line) => line.startsWith("warning: "));
  expect(warnings).toEqual([expect.stringMatching(/^warning: cache:entries: Map<string, number> .*\{\}$/)]);
});

test("the cache records the derived schemas and the hashes of the files they came from", () => {
  const cache = JSON.parse(readFileSync(join(appDir, ".herald/openapi-cache.json"), "utf8")) as {
    responses: Record<string, unknown>;
    sources: Record<string, string>;
  };
  expect(Object.keys(cache.responses).sort()).toEqual(["clock:now", "report:show", "user:find", "user:level", "user:touch"]);
  expect(Object.keys(cache.sources).sort()).toEqual(["actions/cache.ts", "actions/clock.ts", "actions/report.ts", "actions/user.ts"]);
});

test("a booted server documents each 200 response from run's return type", async () => {
  const { document, log } = await bootAndFetch();
  expect(log).not.toContain("out of date");
  expect(okSchema(document, "/api/report/{id}", "get")).toEqual({
    type: "object",
    properties: {
      id: { type: "string" },
      lines: {
        type: "array",
        items: { type: "object", properties: { sku: { type: "string" }, quantity: { type: "number" } }, required: ["sku", "quantity"] },
      },
      note: { type: "string" },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["id", "lines", "tags"],
  });
  expect(okSchema(document, "/api/clock", "get")).toEqual({ type: "string", format: "date-time" });
  expect(okSchema(document, "/api/user", "get")).toEqual({
    anyOf: expect.arrayContaining([{ type: "null" }, { type: "object", properties: { name: { type: "string" } }, required: ["name"] }]),
  });
  expect(okSchema(document, "/api/user/level", "get")).toEqual({ enum: expect.arrayContaining(["admin", "member"]) });
  expect(okSchema(document, "/api/user/touch", "post")).toEqual({ type: "null" });
  expect(okSchema(document, "/api/cache", "get")).toEqual({});
});

test("herald build writes the derived schemas into the client type module", () => {
  const text = readFileSync(join(appDir, "herald-client.d.ts"), "utf8");
  expect(text).toMatch(/"clock:now\.outputs": string;/);
  expect(text).toMatch(/"user:level\.outputs": "admin" \| "member";/);
  expect(text).toMatch(/"user:touch\.outputs": null;/);
  expect(text).toMatch(/outputs: components\["schemas"\]\["report:show\.outputs"\];/);
  // The Map could not be expressed: as without outputs.
  expect(text).not.toContain('"cache:entries.outputs"');
});

test("once an action's file changes, a server booted without building ignores the derived schemas and warns", async () => {
  const file = join(appDir, "actions/clock.ts");
  writeFileSync(file, readFileSync(file, "utf8").replace("return new Date();", "return new Date().getTime();"));
  const { document, log } = await bootAndFetch();
  expect(okSchema(document, "/api/clock", "get")).toEqual({});
  expect(okSchema(document, "/api/report/{id}", "get")).toEqual({});
  expect(log.match(/response schemas from herald build are out of date; run herald build again/g)).toHaveLength(1);
});
