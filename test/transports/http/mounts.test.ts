import { gzipSync } from "node:zlib";
import { useTestServer, serverUrl } from "herald/testing";
import { HTTP_APP } from "./fixture";

useTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal", HTTP_BODY_LIMIT: "64kb", PARAMS_MAX_KEYS: "100" } });

const postHook = (body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${serverUrl()}/hooks`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

test("a mount receives the request as it arrived, its JSON body parsed when it asked", async () => {
  const response = await fetch(`${serverUrl()}/hooks/deliveries?x=1`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ event: "push" }),
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ url: "/hooks/deliveries?x=1", method: "POST", body: { event: "push" } });
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
});

test("the longest mount path wins, and a mount without parseJson reads the body itself", async () => {
  const response = await fetch(`${serverUrl()}/hooks/raw/1`, { method: "POST", body: "hello" });
  expect(await response.text()).toBe("raw:/hooks/raw/1:hello");
});

test("a mount path matches whole segments only", async () => {
  const response = await fetch(`${serverUrl()}/hooksmith`);
  expect(response.status).toBe(404);
});

test("malformed JSON to a parseJson mount is 400 with the core error body", async () => {
  const response = await fetch(`${serverUrl()}/hooks`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
  expect(response.status).toBe(400);
  expect((await response.json()).error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
});

test("a mount that throws is 500 with the core error body", async () => {
  const response = await fetch(`${serverUrl()}/broken-hook`);
  expect(response.status).toBe(500);
  expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_RUN", message: "hook exploded" });
});

describe("a parseJson mount's body is read as an action's", () => {
  test("more keys than PARAMS_MAX_KEYS is 413 with the core error body, and the mount never sees it", async () => {
    const response = await postHook(JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, index]))));
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_PAYLOAD_TOO_LARGE", key: "params", message: "Params may hold at most 100 keys in one object" });
  });

  test("a body over HTTP_BODY_LIMIT is 413, with Connection: close", async () => {
    const response = await postHook(JSON.stringify({ text: "x".repeat(70 * 1024) }));
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_PAYLOAD_TOO_LARGE", message: "The request body is larger than the limit of 65536 bytes" });
  });

  test("a gzip body is decoded, and an application/*+json type is JSON", async () => {
    const response = await postHook(gzipSync(JSON.stringify({ event: "push" })), { "Content-Type": "application/vnd.hook+json", "Content-Encoding": "gzip" });
    expect(await response.json()).toMatchObject({ body: { event: "push" } });
  });

  test("an array (a JSON-RPC batch) is taken; any other JSON value, or a charset other than utf-8, is 400", async () => {
    expect(await (await postHook("[1,2]")).json()).toMatchObject({ body: [1, 2] });
    for (const [body, type] of [["5", "application/json"], ["null", "application/json"], ["{}", "application/json; charset=latin1"]]) {
      const response = await postHook(body!, { "Content-Type": type! });
      expect(response.status).toBe(400);
      expect((await response.json()).error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
    }
  });

  test("a body of another type is left unread for the mount", async () => {
    const response = await postHook("event=push", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(await response.json()).toMatchObject({ body: null });
  });
});
