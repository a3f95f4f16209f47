import { request } from "node:http";
import { useTestServer, serverUrl } from "herald/testing";
import { HTTP_APP } from "./fixture";

useTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal" } });

/**
 * A request sent exactly as written: fetch would normalize `..` away, and adds
 * `Cache-Control: no-cache` to a conditional request.
 */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(serverUrl());
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: "GET", headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body }));
    })
      .on("error", reject)
      .end();
  });
}

test("the public folder is served at /, index.html for the root", async () => {
  const response = await fetch(`${serverUrl()}/`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await response.text()).toContain("<h1>Fixture home</h1>");
});

test("files carry caching headers and answer a conditional request with 304", async () => {
  const response = await fetch(`${serverUrl()}/css/site.css`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/css/);
  expect(response.headers.get("cache-control")).toBe("public, max-age=0");
  expect(response.headers.get("last-modified")).toBeTruthy();
  const etag = response.headers.get("etag");
  expect(etag).toBeTruthy();
  expect((await rawGet("/css/site.css", { "If-None-Match": etag! })).status).toBe(304);
});

test.each([
  ["/../secret.txt"],
  ["/css/../../secret.txt"],
  ["/..%2fsecret.txt"],
  ["/css/..%2f..%2fsecret.txt"],
  ["/%2e%2e/secret.txt"],
])("a path that climbs out of the folder (%s) is refused", async (path) => {
  const { status, body } = await rawGet(path);
  expect(status).toBe(404);
  expect(body).not.toContain("TOP SECRET");
});

test("dotfiles are not served", async () => {
  const response = await fetch(`${serverUrl()}/.hidden/key.txt`);
  expect(response.status).toBe(404);
});

test("a missing file is 404 CONNECTION_NOT_FOUND with the core error body", async () => {
  const response = await fetch(`${serverUrl()}/nowhere.png`);
  expect(response.status).toBe(404);
  expect((await response.json()).error).toMatchObject({ type: "CONNECTION_NOT_FOUND", key: "path", value: "/nowhere.png" });
});
