import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import { useTestServer, serverUrl } from "herald/testing";
import { HTTP_APP } from "./fixture";

useTestServer({ appDir: HTTP_APP, env: { HTTP_BODY_LIMIT: "64kb", HTTP_FILE_LIMIT: "128kb", PARAMS_MAX_KEYS: "100", PARAMS_MAX_VALUES: "500" } });

const api = (path: string) => `${serverUrl()}/api${path}`;
/** One request exactly as written (fetch adds a Content-Length to every POST), on its own connection. */
function rawRequest(head: string, body = ""): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(serverUrl());
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = connect(Number(port), hostname, () => socket.write(`${head}Host: ${hostname}\r\nConnection: close\r\n\r\n${body}`));
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve({ status: Number(text.split(" ")[1]), body: text.slice(text.indexOf("\r\n\r\n") + 4) }));
    socket.on("error", reject);
  });
}

const postJson = (path: string, body: unknown, method = "POST") =>
  fetch(api(path), { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe("params are merged path → query → body, a later source winning", () => {
  test("path params, query params and a JSON body all reach the action", async () => {
    const response = await fetch(api("/echo/7?id=from-query&color=red&size=m"), {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ size: "xl", nested: { deep: [1, 2] } }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).params).toEqual({ id: "from-query", color: "red", size: "xl", nested: { deep: [1, 2] } });
  });

  test("the body overrides the query, which overrides the path", async () => {
    const response = await fetch(api("/echo/7?id=query"), {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id: "body" }),
    });
    expect((await response.json()).params.id).toBe("body");
  });

  test("repeated query keys become arrays", async () => {
    const response = await fetch(api("/echo?tag=a&tag=b&one=1"));
    expect((await response.json()).params).toEqual({ tag: ["a", "b"], one: "1" });
  });

  test("a urlencoded form body is read, repeated keys becoming arrays", async () => {
    const response = await fetch(api("/echo?from=query"), {
      method: "POST",
      body: new URLSearchParams([["name", "Ada"], ["tag", "x"], ["tag", "y"], ["from", "form"]]),
    });
    expect((await response.json()).params).toEqual({ name: "Ada", tag: ["x", "y"], from: "form" });
  });

  test("multipart form fields are params too", async () => {
    const form = new FormData();
    form.append("name", "Grace");
    form.append("tag", "x");
    form.append("tag", "y");
    const response = await fetch(api("/echo"), { method: "POST", body: form });
    expect((await response.json()).params).toEqual({ name: "Grace", tag: ["x", "y"] });
  });

  test("an empty JSON body is no params", async () => {
    const response = await fetch(api("/echo"), { method: "POST", headers: { "Content-Type": "application/json" } });
    expect((await response.json()).params).toEqual({});
  });
  test("a request without a body (no Content-Length, no Transfer-Encoding) gets its path and query params", async () => {
    const answer = await rawRequest("POST /api/echo?name=Ada&tag=a&tag=b HTTP/1.1\r\nContent-Type: application/json\r\n");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).params).toEqual({ name: "Ada", tag: ["a", "b"] });
  });

  test("a body is read whatever the method, a GET's included", async () => {
    const body = '{"from":"body"}';
    const answer = await rawRequest(`GET /api/echo?from=query HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`, body);
    expect(JSON.parse(answer.body).params).toEqual({ from: "body" });
  });
});

describe("__proto__, constructor and prototype never reach a prototype", () => {
  const hostile = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":1,"safe":{"__proto__":{"polluted":"yes"},"ok":1}}';

  test("in a JSON body, at any depth", async () => {
    const response = await fetch(api("/echo"), { method: "POST", headers: { "Content-Type": "application/json" }, body: hostile });
    const echoed = await response.json();
    expect(echoed.params).toEqual({ safe: { ok: 1 } });
    expect(echoed.paramsPrototypeIsObject).toBe(true);
    expect(echoed.objectPrototypePolluted).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("in the query string", async () => {
    const response = await fetch(api("/echo?__proto__=x&constructor=y&prototype=z&__proto__[polluted]=yes&ok=1"));
    const echoed = await response.json();
    expect(echoed.params).toEqual({ ok: "1", "__proto__[polluted]": "yes" });
    expect(echoed.objectPrototypePolluted).toBe(false);
  });

  test("in a urlencoded body", async () => {
    const response = await fetch(api("/echo"), { method: "POST", body: new URLSearchParams("__proto__=x&constructor=y&prototype=z&ok=1") });
    const echoed = await response.json();
    expect(echoed.params).toEqual({ ok: "1" });
    expect(echoed.objectPrototypePolluted).toBe(false);
  });

  test("in multipart field names, bracketed or not, and file fields", async () => {
    const form = new FormData();
    form.append("__proto__[polluted]", "yes");
    form.append("constructor[prototype][polluted]", "yes");
    form.append("a[__proto__][polluted]", "yes");
    form.append("prototype", "x");
    form.append("__proto__", new File(["evil"], "evil.txt", { type: "text/plain" }));
    form.append("ok", "1");
    const response = await fetch(api("/echo"), { method: "POST", body: form });
    const echoed = await response.json();
    expect(echoed.keys.sort()).toEqual(["a", "ok"]);
    expect(echoed.params).toEqual({ a: {}, ok: "1" });
    expect(echoed.objectPrototypePolluted).toBe(false);
  });
});

describe("bad bodies", () => {
  test("malformed JSON is 400 CONNECTION_ACTION_PARAM_FORMATTING", async () => {
    const response = await fetch(api("/echo"), { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name": "Ada",' });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_FORMATTING", key: "body" });
    expect(error.message).toMatch(/^Malformed JSON body/);
  });

  test.each([["[1,2]"], ['"text"'], ["null"], ["42"]])("a JSON body that is not an object (%s) is 400, saying it must be one", async (body) => {
    const response = await fetch(api("/echo"), { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
    expect(error.message).toMatch(/must be a JSON object/);
  });

  test("a malformed multipart body is 400", async () => {
    const response = await fetch(api("/echo"), {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=xyz" },
      body: "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
  });

  const tooBig = "x".repeat(70 * 1024);

  test("a JSON body above the limit is 413 CONNECTION_PAYLOAD_TOO_LARGE", async () => {
    const response = await postJson("/echo", { text: tooBig });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({
      type: "CONNECTION_PAYLOAD_TOO_LARGE",
      message: "The request body is larger than the limit of 65536 bytes",
    });
  });

  test("a urlencoded body above the limit is 413", async () => {
    const response = await fetch(api("/echo"), { method: "POST", body: new URLSearchParams({ text: tooBig }) });
    expect(response.status).toBe(413);
  });

  test("a multipart file above HTTP_BODY_LIMIT but within HTTP_FILE_LIMIT reaches an action whose inputs take files", async () => {
    const form = new FormData();
    form.append("file", new File([tooBig], "big.txt", { type: "text/plain" }));
    const response = await fetch(api("/echo"), { method: "POST", body: form });
    expect(response.status).toBe(200);
  });

  const tooBigFile = "x".repeat(130 * 1024);

  test("a multipart file above HTTP_FILE_LIMIT is 413", async () => {
    const form = new FormData();
    form.append("file", new File([tooBigFile], "big.txt", { type: "text/plain" }));
    const response = await fetch(api("/echo"), { method: "POST", body: form });
    expect(response.status).toBe(413);
    expect((await response.json()).error.type).toBe("CONNECTION_PAYLOAD_TOO_LARGE");
  });

  test("many small multipart parts adding up above HTTP_FILE_LIMIT are 413", async () => {
    const form = new FormData();
    for (let index = 0; index < 14; index += 1) form.append(`field${index}`, "y".repeat(10 * 1024));
    const response = await fetch(api("/echo"), { method: "POST", body: form });
    expect(response.status).toBe(413);
  });

  test("a chunked multipart body (no Content-Length) above HTTP_FILE_LIMIT is 413", async () => {
    const form = new FormData();
    for (let index = 0; index < 14; index += 1) form.append(`field${index}`, "y".repeat(10 * 1024));
    const encoded = new Response(form);
    const response = await fetch(api("/echo"), {
      method: "POST",
      headers: { "Content-Type": encoded.headers.get("content-type")! },
      body: encoded.body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  test("more files than HTTP_MAX_FILES is 413", async () => {
    const form = new FormData();
    for (let index = 0; index < 11; index += 1) form.append("photos", new File(["p"], `p${index}.txt`, { type: "text/plain" }));
    const response = await fetch(api("/echo"), { method: "POST", body: form });
    expect(response.status).toBe(413);
  });
});

describe("what a body may hold (PARAMS_MAX_KEYS=100, PARAMS_MAX_VALUES=500 here)", () => {
  const keyed = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, String(index)]));

  test("PARAMS_MAX_KEYS keys in one object and PARAMS_MAX_VALUES keys and items in all are served", async () => {
    const response = await postJson("/echo", { ...keyed(99), list: Array.from({ length: 400 }, (_, index) => index) });
    expect(response.status).toBe(200);
  });

  test.each([
    ["a body of more keys", () => keyed(101)],
    ["an object nested in it of more keys", () => ({ inner: keyed(101) })],
    ["an array of more items", () => ({ list: Array.from({ length: 501 }, () => 0) })],
    ["small objects adding up to more values", () => ({ list: Array.from({ length: 60 }, () => keyed(9)) })],
  ])("%s is 413 CONNECTION_PAYLOAD_TOO_LARGE before the action's inputs see it", async (_name, body) => {
    const response = await postJson("/user", body(), "PUT");
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_PAYLOAD_TOO_LARGE", key: "params", message: expect.stringMatching(/^Params may hold at most (100 keys|500 values)/) });
  });

  test("a urlencoded body of more keys is 413", async () => {
    const response = await fetch(api("/echo"), { method: "POST", body: new URLSearchParams(keyed(101)) });
    expect(response.status).toBe(413);
  });
});

describe("which bodies are read", () => {
  test("an action without inputs has no body read at all", async () => {
    const response = await fetch(api("/nothing"), { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"not json' });
    expect(response.status).toBe(200);
  });

  test("a multipart body to an action whose inputs take no file is 415, naming the types it reads", async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ name: "Ada", email: "ada@example.com", password: "long enough" })) form.append(key, value);
    const response = await fetch(api("/user"), { method: "PUT", body: form });
    expect(response.status).toBe(415);
    expect((await response.json()).error).toEqual({
      type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE",
      message: 'This action reads a body of type application/json or application/x-www-form-urlencoded, not "multipart/form-data"',
      key: "body",
      value: "multipart/form-data",
      timestamp: expect.any(String),
      stack: expect.any(String),
    });
  });

  test("a body of another type is 415; the types named include multipart when the inputs take files", async () => {
    for (const type of ["text/plain", "application/xml; charset=utf-8"]) {
      const response = await fetch(api("/echo?q=1"), { method: "POST", headers: { "Content-Type": type }, body: "name=Ada" });
      expect(response.status).toBe(415);
      expect((await response.json()).error).toMatchObject({
        type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE",
        message: `This action reads a body of type application/json, application/x-www-form-urlencoded or multipart/form-data, not "${type.split(";")[0]}"`,
        value: type.split(";")[0],
      });
    }
  });

  test("a body without Content-Type is 415; an empty body of any type is no body", async () => {
    const untyped = await rawRequest("POST /api/echo?q=1 HTTP/1.1\r\nContent-Length: 8\r\n", "name=Ada");
    expect(untyped.status).toBe(415);
    expect(JSON.parse(untyped.body).error).toMatchObject({
      type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE",
      message: "The request body has no Content-Type: this action reads a body of type application/json, application/x-www-form-urlencoded or multipart/form-data",
      key: "body",
    });
    const empty = await rawRequest("POST /api/echo?q=1 HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n");
    expect(empty.status).toBe(200);
    expect(JSON.parse(empty.body).params).toEqual({ q: "1" });
  });

  test("an action without inputs reads no body, whatever its type", async () => {
    const response = await fetch(api("/nothing"), { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hello" });
    expect(response.status).toBe(200);
  });

  test("after a 415 the connection serves the next request, its refused body drained", async () => {
    const { hostname, port } = new URL(serverUrl());
    const answers = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect(Number(port), hostname, () => {
        const body = "x".repeat(32 * 1024);
        socket.write(`POST /api/echo HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        socket.write(`GET /api/echo?after=yes HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
      });
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answers).toMatch(/^HTTP\/1\.1 415 /);
    expect(answers).toMatch(/^HTTP\/1\.1 415 [\s\S]*HTTP\/1\.1 200 [\s\S]*"after":"yes"/);
  });

  test("a chunked body of another type is answered 415 with Connection: close while it is still being sent", async () => {
    const { hostname, port } = new URL(serverUrl());
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let answer = "";
      socket.on("connect", () => {
        // Never ends the body: the answer cannot wait for its end.
        socket.write(`POST /api/echo HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n`);
      });
      socket.on("data", (data) => {
        answer += data.toString("latin1");
        if (answer.includes("\r\n\r\n")) {
          socket.destroy();
          resolve(answer.slice(0, answer.indexOf("\r\n\r\n")));
        }
      });
      socket.on("error", reject);
    });
    expect(head).toMatch(/^HTTP\/1\.1 415 /);
    expect(head).toMatch(/\r\nConnection: close\r\n/i);
  });

  test("a gzip-compressed JSON body is read", async () => {
    const response = await fetch(api("/echo"), {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
      body: gzipSync(JSON.stringify({ name: "Ada" })),
    });
    expect((await response.json()).params).toEqual({ name: "Ada" });
  });

  test("a compressed body larger than the limit once inflated is 413", async () => {
    const response = await fetch(api("/echo"), {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
      body: gzipSync(JSON.stringify({ text: "x".repeat(70 * 1024) })),
    });
    expect(response.status).toBe(413);
  });

  test("a chunked body is answered 413 with Connection: close as it crosses the limit, while it is still being sent", async () => {
    const { hostname, port } = new URL(serverUrl());
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      const chunk = Buffer.alloc(16 * 1024, "a");
      let answer = "";
      let sent = 0;
      // Never ends the body: the answer can only come from the limit.
      const pump = () => {
        while (!answer && sent < 16 * chunk.length) {
          sent += chunk.length;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once("drain", pump);
        }
      };
      socket.on("connect", () => {
        socket.write(`POST /api/echo HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        pump();
      });
      socket.on("data", (data) => {
        answer += data.toString("latin1");
        if (answer.includes("\r\n\r\n")) {
          socket.destroy();
          resolve(answer.slice(0, answer.indexOf("\r\n\r\n")));
        }
      });
      socket.on("error", reject);
    });
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/\r\nConnection: close\r\n/i);
  });
});

describe("validation", () => {
  test("params failing the action's inputs are 422 with the issues, never echoing a secret", async () => {
    const response = await postJson("/user", { name: "Al", email: "not-an-email", password: "short" }, "PUT");
    expect(response.status).toBe(422);
    const { error } = await response.json();
    expect(error).toMatchObject({
      type: "CONNECTION_ACTION_PARAM_VALIDATION",
      message: 'Invalid value for "name": Too small: expected string to have >=3 characters',
      key: "name",
      value: "Al",
    });
    expect(error.issues.map((issue: { path: string[] }) => issue.path.join("."))).toEqual(["name", "email", "password"]);
    expect(JSON.stringify(error)).not.toContain("short");
  });

  test("a missing required param is 422 CONNECTION_ACTION_PARAM_REQUIRED", async () => {
    const response = await postJson("/user", { email: "ada@example.com", password: "long enough" }, "PUT");
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_REQUIRED", key: "name" });
  });

  test("valid params run the action", async () => {
    const response = await postJson("/user", { name: "Ada", email: "ada@example.com", password: "long enough" }, "PUT");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: { id: 1, name: "Ada" } });
  });

  test("a path param is validated like any other", async () => {
    const response = await fetch(api("/users/abc"));
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "id", value: "abc" });
  });
});
