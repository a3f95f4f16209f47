import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { HTTP_APP } from "./fixture";

/**
 * One node:http path answers every request beneath the API prefix. Until it did, Express
 * answered some of them (all of them with the setting HTTP_FAST_PATH=false, since removed), and a
 * differential test sent generated requests to both and compared the answers. Those requests, and
 * the answers Express gave them, are kept in test/fixtures/http-answers.json: each must get the
 * same status, headers (but `Date`) and body from the server now. Run in production, where error
 * bodies carry no stack; what is random per run (a generated request id, a session id, an error's
 * timestamp, the port, a static file's dates) is masked, and long bodies and the security headers
 * are kept as digests. `HTTP_ANSWERS_RECORD=1` writes the file anew from fresh generated requests
 * and this server's answers: only for a deliberate change of answers, in the commit that makes it.
 */

const ANSWERS_FILE = join(__dirname, "../../fixtures/http-answers.json");
const RECORDING = process.env.HTTP_ANSWERS_RECORD === "1";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const PATHS = [
  "/api/echo",
  "/api/ECHO/",
  "/api/echo/7",
  "/api/echo/7#part",
  "/api/echo/%E0%A4%A",
  "/api/echo/a%2Fb",
  "/api/users/me",
  "/api/users/12",
  "/api/users/abc",
  "/api/user",
  "/api/small",
  "/api/big",
  "/api/nothing",
  "/api/forbidden",
  "/api/crash",
  "/api/unserializable",
  "/api/report.csv",
  "/api/files/a%20b/c.txt",
  "/api/archive/2024/05",
  "/api/ticks",
  "/api/ticks/broken",
  "/api/uploads",
  "/api/missing",
  "/api",
  "/api/",
  "/apiary",
  "/hooks",
  "/hooks/raw",
  "/index.html",
  "/nowhere",
];
const QUERIES = ["", "?message=hi&count=2", "?a=1&a=2", "?__proto__[polluted]=1&constructor=x", "?id=5", "?q=%ZZ", "?"];
const METHODS = ["GET", "HEAD", "POST", "PATCH", "DELETE", "PUT", "OPTIONS"];

const BODY_LIMIT = 2048;

/** The bodies a generated request may carry, by kind: none, JSON of every sort, a form, text, too large. */
const BODIES = {
  none: {},
  json: { type: "application/json", text: JSON.stringify({ message: "hi", count: 3, nested: { a: [1, 2] } }) },
  "json-array": { type: "application/json", text: "[1,2]" },
  "json-proto": { type: "application/json", text: '{"__proto__":{"polluted":1},"name":"x"}' },
  malformed: { type: "application/json", text: '{"message":' },
  form: { type: "application/x-www-form-urlencoded", text: "message=hi&count=4&tags=a&tags=b" },
  text: { type: "text/plain", text: "hello" },
  multipart: {
    type: "multipart/form-data; boundary=b0undary",
    text: [
      "--b0undary",
      'Content-Disposition: form-data; name="title"',
      "",
      "notes",
      "--b0undary",
      'Content-Disposition: form-data; name="document"; filename="a.txt"',
      "Content-Type: text/plain",
      "",
      "hello",
      "--b0undary--",
      "",
    ].join("\r\n"),
  },
  empty: { type: "application/json", text: "" },
  "too-large": { type: "application/json", text: JSON.stringify({ blob: "x".repeat(BODY_LIMIT) }) },
} satisfies Record<string, { type?: string; text?: string }>;

type BodyKind = keyof typeof BODIES;
type OriginKind = "none" | "same" | "listed" | "other" | "cross-site-fetch";

interface Generated {
  method: string;
  path: string;
  body: BodyKind;
  origin: OriginKind;
  acceptEncoding: string | undefined;
  cookie: string | undefined;
  requestId: string | undefined;
  trace: string | undefined;
  forwarded: "none" | "https" | "other-host";
}

const generated = fc.record<Generated>({
  method: fc.constantFrom(...METHODS),
  path: fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...QUERIES)).map(([path, query]) => path + query),
  body: fc.constantFrom(...(Object.keys(BODIES) as BodyKind[])),
  origin: fc.constantFrom<OriginKind>("none", "same", "listed", "other", "cross-site-fetch"),
  acceptEncoding: fc.constantFrom(undefined, "gzip", "br", "gzip, br", "identity"),
  cookie: fc.constantFrom(undefined, "herald.sid=not-a-session", "theme=dark"),
  requestId: fc.constantFrom(undefined, "req-fixed-1", "bad id with spaces"),
  trace: fc.constantFrom(undefined, "t-1"),
  forwarded: fc.constantFrom<Generated["forwarded"]>("none", "https", "other-host"),
});

const LISTED_ORIGIN = "https://app.example";

function send(server: HeraldServer, input: Generated): Promise<Answer> {
  const url = new URL(server.url!);
  const body: { type?: string; text?: string } = BODIES[input.body];
  const headers: Record<string, string> = {};
  if (body.type) headers["content-type"] = body.type;
  if (body.text !== undefined) headers["content-length"] = String(Buffer.byteLength(body.text));
  if (input.origin === "same") headers.origin = `${url.protocol}//${url.host}`;
  if (input.origin === "listed") headers.origin = LISTED_ORIGIN;
  if (input.origin === "other") headers.origin = "https://evil.example";
  if (input.origin === "cross-site-fetch") headers["sec-fetch-site"] = "cross-site";
  if (input.acceptEncoding) headers["accept-encoding"] = input.acceptEncoding;
  if (input.cookie) headers.cookie = input.cookie;
  if (input.requestId) headers["x-request-id"] = input.requestId;
  if (input.trace) headers["x-trace"] = input.trace;
  if (input.forwarded === "https") headers["x-forwarded-proto"] = "https";
  if (input.forwarded === "other-host") headers["x-forwarded-host"] = "api.example, proxy.internal";
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, method: input.method, path: input.path, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = incoming.headers["content-encoding"];
        const decoded = encoding === "gzip" ? gunzipSync(raw) : encoding === "br" ? brotliDecompressSync(raw) : raw;
        resolve({ status: incoming.statusCode!, headers: { ...incoming.headers }, body: decoded.toString("utf8") });
      });
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body.text);
  });
}

/** The headers helmet sets (see security-headers.ts), kept as one digest: every answer carries them. */
const SECURITY_HEADERS = new Set([
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
]);

const LONGEST_KEPT_BODY = 400;

function digest(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}

/** What may differ between two runs answering the same request, masked; what is long, as a digest. */
function comparable(answer: Answer, input: Generated, server: HeraldServer): Answer {
  const headers: Answer["headers"] = {};
  const security: string[] = [];
  for (const [name, value] of Object.entries(answer.headers).sort(([a], [b]) => a.localeCompare(b))) {
    if (SECURITY_HEADERS.has(name)) security.push(`${name}: ${String(value)}`);
    else headers[name] = value;
  }
  delete headers.date;
  if (security.length > 0) headers["<security headers>"] = `${security.length} ${digest(security.join("\n"))}`;
  // A static file's validators come from its modification time; a compressed length from the zlib of the Node.js that runs.
  for (const name of ["etag", "last-modified"]) if (headers[name]) headers[name] = "<of the file>";
  if (headers["content-encoding"] && headers["content-length"]) headers["content-length"] = "<compressed>";
  // A generated request id comes from a counter of the process.
  if (input.requestId !== "req-fixed-1") headers["x-request-id"] = headers["x-request-id"] ? "<generated>" : undefined;
  if (headers["set-cookie"]) headers["set-cookie"] = (headers["set-cookie"] as string[]).map((cookie) => cookie.replace(/^herald\.sid=[^;]*/, "herald.sid=<id>"));
  const body = answer.body
    .replace(/"timestamp":"[^"]*"/g, '"timestamp":"<time>"')
    .split(new URL(server.url!).host)
    .join("<host>");
  return { status: answer.status, headers, body: body.length > LONGEST_KEPT_BODY ? `${digest(body)} (${body.length} characters)` : body };
}

interface Recorded {
  request: Generated;
  answer: Answer;
}

type RecordedRuns = Record<string, Recorded[]>;

const recorded: RecordedRuns = RECORDING ? {} : (JSON.parse(readFileSync(ANSWERS_FILE, "utf8")) as RecordedRuns);

/** One line per request and answer, so that a change of answers reads as a diff. */
function writeRecorded(): void {
  const runs = Object.entries(recorded).map(([title, entries]) => `  ${JSON.stringify(title)}: [\n${entries.map((entry) => `    ${JSON.stringify(entry)}`).join(",\n")}\n  ]`);
  writeFileSync(ANSWERS_FILE, `{\n${runs.join(",\n")}\n}\n`);
}

function describeServer(title: string, env: NodeJS.ProcessEnv): void {
  describe(title, () => {
    let server: HeraldServer;

    beforeAll(async () => {
      server = await startTestServer({
        appDir: HTTP_APP,
        env: {
          NODE_ENV: "production",
          LOG_LEVEL: "fatal",
          SESSION_SECRET: "differential-test-secret-0123456789abcdef",
          HTTP_BODY_LIMIT: String(BODY_LIMIT),
          ...env,
        },
      });
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
    });

    test.each([RECORDING ? "records" : "answers"])("every recorded request gets the answer Express gave it (%s)", async () => {
      if (RECORDING) {
        const entries: Recorded[] = [];
        for (const input of fc.sample(generated, { numRuns: 200, seed: 20261127 })) {
          entries.push({ request: input, answer: comparable(await send(server, input), input, server) });
        }
        recorded[title] = entries;
        return writeRecorded();
      }
      const entries = recorded[title]!;
      expect(entries.length).toBeGreaterThan(0);
      for (const { request: input, answer } of entries) {
        expect({ request: input, answer: comparable(await send(server, input), input, server) }).toEqual({ request: input, answer });
      }
    }, 120_000);
  });
}

describeServer("without CORS origins", {});
describeServer("with CORS origins", { HTTP_CORS_ORIGINS: LISTED_ORIGIN });
describeServer("behind a trusted proxy", { HTTP_TRUST_PROXY: "true" });
