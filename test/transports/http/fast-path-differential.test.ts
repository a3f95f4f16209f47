import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";
import { HTTP_APP } from "./fixture";

/**
 * The fast path (HTTP_FAST_PATH, on by default) must be indistinguishable from Express: the same
 * generated requests go to a server with it and one without, and each pair of answers must agree
 * on status, headers (but `Date`) and body. Run in production, where error bodies carry no stack
 * (whose frames name the path taken); what is random per server (a generated request id, a
 * session id, an error's timestamp) is masked.
 */

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

/** What may differ between two servers answering the same request, masked. */
function comparable(answer: Answer, input: Generated, server: HeraldServer): Answer {
  const headers = { ...answer.headers };
  delete headers.date;
  // A generated request id comes from a counter both servers share in this process.
  if (input.requestId !== "req-fixed-1") headers["x-request-id"] = headers["x-request-id"] ? "<generated>" : undefined;
  if (headers["set-cookie"]) headers["set-cookie"] = (headers["set-cookie"] as string[]).map((cookie) => cookie.replace(/^herald\.sid=[^;]*/, "herald.sid=<id>"));
  const body = answer.body
    .replace(/"timestamp":"[^"]*"/g, '"timestamp":"<time>"')
    .split(new URL(server.url!).host)
    .join("<host>");
  return { status: answer.status, headers, body };
}

function describeServers(title: string, env: NodeJS.ProcessEnv): void {
  describe(title, () => {
    let fast: HeraldServer;
    let express: HeraldServer;
    const common = {
      NODE_ENV: "production",
      LOG_LEVEL: "fatal",
      SESSION_SECRET: "differential-test-secret-0123456789abcdef",
      HTTP_BODY_LIMIT: String(BODY_LIMIT),
      ...env,
    };

    beforeAll(async () => {
      fast = await startTestServer({ appDir: HTTP_APP, env: { ...common, HTTP_FAST_PATH: "true" } });
      express = await startTestServer({ appDir: HTTP_APP, env: { ...common, HTTP_FAST_PATH: "false" } });
    }, 60_000);

    afterAll(async () => {
      await fast?.stop();
      await express?.stop();
    });

    test("every generated request gets the same answer on both paths", async () => {
      await fc.assert(
        fc.asyncProperty(generated, async (input) => {
          const [onFast, onExpress] = await Promise.all([send(fast, input), send(express, input)]);
          expect(comparable(onFast, input, fast)).toEqual(comparable(onExpress, input, express));
        }),
        { numRuns: 200 },
      );
    }, 120_000);

  });
}

describeServers("without CORS origins", {});
describeServers("with CORS origins", { HTTP_CORS_ORIGINS: LISTED_ORIGIN });
describeServers("behind a trusted proxy", { HTTP_TRUST_PROXY: "true" });
