import { useTestServer, serverUrl } from "herald/testing";
import { HTTP_APP } from "./fixture";

useTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal" } });

const api = (path: string) => `${serverUrl()}/api${path}`;

describe("action results", () => {
  test("the returned value is sent as JSON with 200", async () => {
    const response = await fetch(api("/small"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ ok: true });
  });

  test("an action that returns nothing sends JSON null", async () => {
    const response = await fetch(api("/nothing"), { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("null");
  });

  test("a thrown TypedError is sent with its status from ErrorStatusCodes and the core error body", async () => {
    const response = await fetch(api("/forbidden"));
    expect(response.status).toBe(403);
    expect((await response.json()).error).toEqual({
      message: "Admins only",
      type: "CONNECTION_FORBIDDEN",
      key: "role",
      value: "guest",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      stack: expect.any(String),
    });
  });

  test("any other thrown error is 500 CONNECTION_ACTION_RUN", async () => {
    const response = await fetch(api("/crash"));
    expect(response.status).toBe(500);
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_RUN", message: "disk on fire" });
  });

  test("a value that cannot be serialized is 500 CONNECTION_SERVER_ERROR", async () => {
    const response = await fetch(api("/unserializable"));
    expect(response.status).toBe(500);
    expect((await response.json()).error.type).toBe("CONNECTION_SERVER_ERROR");
  });

  test("a returned Response passes through: status, headers, cookies and streamed body", async () => {
    const response = await fetch(api("/report.csv"), { headers: { "Accept-Encoding": "gzip" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("text/csv");
    expect(response.headers.get("x-report")).toBe("monthly");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(await response.text()).toBe("id,name\n1,Ada\n2,Grace\n");
  });
});

/** A generated id: the process's 16 hex digits, then a base-36 counter. */
const GENERATED_ID = /^[0-9a-f]{16}-[0-9a-z]+$/;

describe("request ids", () => {
  test("every response carries a generated X-Request-Id, which the action sees on its connection", async () => {
    const response = await fetch(api("/connection"));
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(GENERATED_ID);
    expect(await response.json()).toEqual({
      type: "web",
      requestId: id,
      remoteAddress: "127.0.0.1",
      hasSession: true,
      connectionId: expect.stringMatching(GENERATED_ID),
    });
  });

  test("each request gets its own request id and its own connection id", async () => {
    const responses = await Promise.all([1, 2, 3].map(() => fetch(api("/connection"))));
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(new Set(responses.map((response) => response.headers.get("x-request-id"))).size).toBe(3);
    expect(new Set(bodies.map((body) => body.connectionId)).size).toBe(3);
  });

  test("a valid incoming X-Request-Id is echoed and used", async () => {
    const response = await fetch(api("/connection"), { headers: { "X-Request-Id": "trace-abc.123" } });
    expect(response.headers.get("x-request-id")).toBe("trace-abc.123");
    expect((await response.json()).requestId).toBe("trace-abc.123");
  });

  test.each([["has spaces in it"], ["x".repeat(129)], ["<script>"]])("an invalid incoming id (%s) is replaced", async (incoming) => {
    const response = await fetch(api("/connection"), { headers: { "X-Request-Id": incoming } });
    expect(response.headers.get("x-request-id")).toMatch(GENERATED_ID);
  });

  test("error responses and 404s carry one too", async () => {
    expect((await fetch(api("/crash"))).headers.get("x-request-id")).toBeTruthy();
    expect((await fetch(`${serverUrl()}/missing`)).headers.get("x-request-id")).toBeTruthy();
  });
});

describe("compression", () => {
  test("a body above 1 KB is gzipped when the client accepts it", async () => {
    const response = await fetch(api("/big"), { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect((await response.json()).text).toHaveLength(2800);
  });

  test("a body above 1 KB is sent as is when the client does not accept gzip", async () => {
    const response = await fetch(api("/big"), { headers: { "Accept-Encoding": "identity" } });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect((await response.json()).text).toHaveLength(2800);
  });

  test("a body under 1 KB is not compressed, and does not vary by Accept-Encoding", async () => {
    const response = await fetch(api("/small"), { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBeNull();
    expect(response.headers.get("content-length")).toBe("11");
  });

  test("a body above 1 KB says Vary: Accept-Encoding, compressed or not", async () => {
    for (const encoding of ["gzip", "identity"]) {
      const response = await fetch(api("/big"), { headers: { "Accept-Encoding": encoding } });
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
    }
  });

  test("a body above 1 KB is brotli-compressed for a client that accepts only br", async () => {
    const response = await fetch(api("/big"), { headers: { "Accept-Encoding": "br" } });
    expect(response.headers.get("content-encoding")).toBe("br");
    expect((await response.json()).text).toHaveLength(2800);
  });

  test("the client's preference among gzip and br decides", async () => {
    const response = await fetch(api("/big"), { headers: { "Accept-Encoding": "br;q=0.5, gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });

  test("HEAD of a large body is not compressed, and says the length of the uncompressed body", async () => {
    const full = await fetch(api("/big"), { headers: { "Accept-Encoding": "identity" } });
    const head = await fetch(api("/big"), { method: "HEAD", headers: { "Accept-Encoding": "gzip" } });
    expect(head.headers.get("content-encoding")).toBeNull();
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(await full.text())));
    expect(await head.text()).toBe("");
  });

  test("static files above 1 KB are compressed as well", async () => {
    const response = await fetch(`${serverUrl()}/css/theme.css`, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(await response.text()).toContain(".rule-79");
  });
});

describe("caching", () => {
  test("action JSON carries no ETag, and a revalidation runs the action again", async () => {
    const response = await fetch(api("/small"));
    expect(response.headers.get("etag")).toBeNull();
    const again = await fetch(api("/small"), { headers: { "If-None-Match": "*" } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ok: true });
  });
});

describe("security headers", () => {
  test("nosniff, frame deny and a referrer policy are on every response; no HSTS over plain HTTP", async () => {
    for (const url of [api("/small"), api("/nope"), `${serverUrl()}/`]) {
      const response = await fetch(url);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("strict-transport-security")).toBeNull();
      expect(response.headers.get("x-powered-by")).toBeNull();
    }
  });

  test("helmet's whole default set is there, once per response", async () => {
    const response = await fetch(api("/small"));
    const headers: Record<string, string> = {};
    const perConnection = ["date", "x-request-id", "content-length", "connection", "keep-alive"];
    response.headers.forEach((value, name) => {
      if (!perConnection.includes(name)) headers[name] = value;
    });
    expect(headers).toEqual({
      "cache-control": "no-store",
      "content-security-policy":
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
      "content-type": "application/json; charset=utf-8",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-origin",
      "origin-agent-cluster": "?1",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "x-dns-prefetch-control": "off",
      "x-download-options": "noopen",
      "x-frame-options": "DENY",
      "x-permitted-cross-domain-policies": "none",
      "x-xss-protection": "0",
    });
  });

  test("X-Forwarded-Proto is not trusted unless HTTP_TRUST_PROXY says so", async () => {
    const response = await fetch(api("/small"), { headers: { "X-Forwarded-Proto": "https" } });
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  test("X-Forwarded-For is not trusted unless HTTP_TRUST_PROXY says so: the connection has the TCP peer's address", async () => {
    const response = await fetch(api("/connection"), { headers: { "X-Forwarded-For": "203.0.113.9, 198.51.100.7" } });
    expect((await response.json()).remoteAddress).toBe("127.0.0.1");
  });

  test("the action reads the request's headers on its connection", async () => {
    const response = await fetch(api("/connection"), { headers: { "X-Trace": "abc" } });
    expect((await response.json()).trace).toBe("abc");
  });
});
