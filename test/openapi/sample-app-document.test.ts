import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OpenAPIObject, ParameterObject } from "openapi3-ts/oas31";
import ts from "typescript";
import { serverUrl, useTestServer } from "herald/testing";
import { SAMPLE_APP } from "../sample-app/support/app";
import { usePostgresSchema } from "../sample-app/support/postgres";

/** The warnings `redocly lint` gives on the sample app's document, each explained in docs/openapi.md. */
const EXPLAINED_WARNINGS: string[] = ["warn info-license", "warn no-unused-components"];

const postgres = usePostgresSchema("sample_openapi_document");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, LOG_LEVEL: "fatal" } });

async function servedDocument(): Promise<OpenAPIObject> {
  const response = await fetch(`${serverUrl()}/api/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as OpenAPIObject;
}

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint` with the recommended rules, as a child process, on the document in a file. */
function redoclyLint(file: string): Promise<LintReport> {
  const cli = require.resolve("@redocly/cli/bin/cli.js");
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, "lint", file, "--extends", "recommended", "--format", "json"],
      // No telemetry and no update check: the lint must not depend on the network.
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as LintReport);
        } catch {
          reject(new Error(`redocly lint gave no report (${error?.message ?? "no error"}):\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

test("GET /api/user/{user} takes the user's id in the path, not a user object", async () => {
  const document = await servedDocument();
  const [user] = document.paths!["/api/user/{user}"]!.get!.parameters as ParameterObject[];
  expect(user).toMatchObject({ name: "user", in: "path", required: true, description: "The user's id" });
  expect(JSON.stringify(user!.schema)).not.toContain('"object"');
  expect(user!.schema).toMatchObject({ anyOf: [{ type: "integer" }, { type: "string", pattern: expect.any(String) }] });
});

test("each operation lists the errors its action and middleware declare, with Herald's for its shape", async () => {
  const document = await servedDocument();
  const statuses = (path: string, method: "get" | "put" | "post" | "delete") => Object.keys(document.paths![path]![method]!.responses!);
  // user:create: CONNECTION_CONFLICT (409); a body with inputs (400, 413, 415, 422).
  expect(statuses("/api/user", "put")).toEqual(["200", "400", "409", "413", "415", "422", "429", "500", "503", "504"]);
  // user:edit: RequireSignIn's 401, its own 409 and 422, LimitCurrentPassword's 429.
  expect(statuses("/api/user", "post")).toEqual(["200", "400", "401", "409", "413", "415", "422", "429", "500", "503", "504"]);
  // user:view: zUserIdOrModel's 404, RequireSignIn's 401.
  expect(statuses("/api/user/{user}", "get")).toEqual(["200", "400", "401", "404", "413", "422", "429", "500", "503", "504"]);
  // session:destroy: no inputs, no middleware: Herald's alone.
  expect(statuses("/api/session", "delete")).toEqual(["200", "400", "413", "429", "500", "503", "504"]);
  // session:create declares both 401 types, so it refers to the shared response; its rate limits' 429 carries their value.
  const signIn = document.paths!["/api/session"]!.put!.responses!;
  expect(signIn["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
  expect(JSON.stringify(signIn["429"])).toContain('"windowMs"');
});

test("the document lists every tag its operations use, each with a description naming its actions", async () => {
  const document = await servedDocument();
  const used = new Set(Object.values(document.paths!).flatMap((item) => Object.values(item).flatMap((operation) => (operation as { tags?: string[] }).tags ?? [])));
  expect(document.tags!.map((tag) => tag.name)).toEqual([...used].sort());
  expect(document.tags!.find((tag) => tag.name === "user")).toEqual({ name: "user", description: "The `user:create`, `user:edit`, `user:view` actions" });
  expect(document.tags!.find((tag) => tag.name === "status")).toEqual({ name: "status", description: "The `status` action" });
});

test("docs/openapi.md shows the sample app's user:create as served: its bodies, responses, tag and security", async () => {
  const page = readFileSync(join(__dirname, "../../docs/openapi.md"), "utf8");
  const shown = JSON.parse(/becomes this operation \(abridged\):\n\n```json\n([\s\S]*?)\n```/.exec(page)![1]!) as OpenAPIObject;
  const served = (await servedDocument()).paths!["/api/user"]!.put!;
  const operation = shown.paths!["/api/user"]!.put!;
  expect(operation.operationId).toBe(served.operationId);
  expect(operation.tags).toEqual(served.tags);
  expect(operation.security).toEqual(served.security);
  const bodyTypes = (body: unknown) => Object.keys((body as { content: Record<string, unknown> }).content);
  expect(bodyTypes(operation.requestBody)).toEqual(bodyTypes(served.requestBody));
  expect(Object.keys(operation.responses!)).toEqual(Object.keys(served.responses!));
});

test("an action the web may not call has no operation", async () => {
  const document = await servedDocument();
  expect(Object.keys(document.paths!).filter((path) => path.includes("cleanup"))).toEqual([]);
});

test("no internal column reaches the document", async () => {
  const text = JSON.stringify(await servedDocument());
  expect(text).not.toContain("password_hash");
});

test("declares the session cookie, and which operations need it", async () => {
  const document = await servedDocument();
  expect(document.components?.securitySchemes).toEqual({
    session: { type: "apiKey", in: "cookie", name: "herald.sid", description: expect.any(String) },
  });
  const securityOf = (path: string, method: "get" | "put" | "post" | "delete") => document.paths![path]![method]!.security;
  for (const [path, method] of [["/api/user/{user}", "get"], ["/api/user", "post"], ["/api/message", "put"], ["/api/session", "get"]] as const) {
    expect({ path, method, security: securityOf(path, method) }).toEqual({ path, method, security: [{ session: [] }] });
  }
  for (const [path, method] of [["/api/status", "get"], ["/api/user", "put"], ["/api/session", "put"], ["/api/messages/list", "get"]] as const) {
    expect({ path, method, security: securityOf(path, method) }).toEqual({ path, method, security: [] });
  }
});

test("redocly lint with the recommended rules finds no error in the served document", async () => {
  const folder = mkdtempSync(join(tmpdir(), "herald-openapi-"));
  try {
    const file = join(folder, "openapi.json");
    writeFileSync(file, JSON.stringify(await servedDocument()));
    const report = await redoclyLint(file);
    expect(report.problems.filter((problem) => problem.severity === "error")).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // Each warning left is explained in docs/openapi.md; a new kind of warning needs its entry there.
    expect([...new Set(report.problems.map((problem) => `${problem.severity} ${problem.ruleId}`))].sort()).toEqual(EXPLAINED_WARNINGS);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);

/** The warnings Spectral's `spectral:oas` rules give on the sample app's document, each explained in docs/openapi.md. */
const EXPLAINED_SPECTRAL_WARNINGS: string[] = ["warn info-contact", "warn oas3-unused-component"];

interface SpectralProblem {
  code: string;
  severity: number;
  path: string[];
}

/** `spectral lint` with the `spectral:oas` ruleset, as a child process, on the document in `folder`. */
function spectralLint(folder: string, file: string): Promise<SpectralProblem[]> {
  const ruleset = join(folder, ".spectral.yaml");
  writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  const cli = require.resolve("@stoplight/spectral-cli/dist/index.js");
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, "lint", file, "--ruleset", ruleset, "--format", "json", "--quiet"], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout.slice(stdout.indexOf("["))) as SpectralProblem[]);
      } catch {
        reject(new Error(`spectral lint gave no report (${error?.message ?? "no error"}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** Spectral's severities: 0 error, 1 warning, 2 information, 3 hint. */
const SPECTRAL_SEVERITY = ["error", "warn", "info", "hint"];

test("spectral lint with the spectral:oas rules finds no error in the served document", async () => {
  const folder = mkdtempSync(join(tmpdir(), "herald-openapi-"));
  try {
    const file = join(folder, "openapi.json");
    writeFileSync(file, JSON.stringify(await servedDocument()));
    const problems = await spectralLint(folder, file);
    expect(problems.filter((problem) => problem.severity === 0)).toEqual([]);
    // Each warning left is explained in docs/openapi.md; a new kind of warning needs its entry there.
    expect([...new Set(problems.map((problem) => `${SPECTRAL_SEVERITY[problem.severity]} ${problem.code}`))].sort()).toEqual(EXPLAINED_SPECTRAL_WARNINGS);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);

/** openapi-typescript's command line, as a child process: the package is an ES module Jest cannot load. */
function openapiTypescript(document: string, output: string): Promise<void> {
  const cli = join(require.resolve("openapi-typescript/package.json"), "../bin/cli.js");
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, document, "--output", output], { timeout: 120_000 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`openapi-typescript failed: ${stderr}`)) : resolve(),
    );
  });
}

/**
 * What a client generator makes of the document: openapi-typescript's types, compiled with the
 * check below. An operation whose 200 body would reach a client as `unknown` is named in the
 * compiler's error; the last line reads a typed response field.
 */
const CLIENT_CHECK = `
import type { paths } from "./openapi";
type Method = "get" | "put" | "post" | "delete";
type Body<Operation> = Operation extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : "no JSON 200";
type UnknownBodies = {
  [Path in keyof paths]: { [M in Method & keyof paths[Path]]: unknown extends Body<paths[Path][M]> ? \`\${M} \${Path & string}\` : never }[Method & keyof paths[Path]];
}[keyof paths];
export const noUnknownBody: [UnknownBodies] extends [never] ? true : UnknownBodies = true;
export const signedIn: Body<paths["/api/session"]["get"]>["user"]["email"] = "ada@example.com";
`;

test("openapi-typescript's types of the served document compile, with no 200 body typed unknown", async () => {
  const folder = mkdtempSync(join(tmpdir(), "herald-openapi-ts-"));
  try {
    writeFileSync(join(folder, "openapi.json"), JSON.stringify(await servedDocument()));
    await openapiTypescript(join(folder, "openapi.json"), join(folder, "openapi.ts"));
    writeFileSync(join(folder, "check.ts"), CLIENT_CHECK);
    const program = ts.createProgram([join(folder, "check.ts")], { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022 });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(problems).toEqual([]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);
