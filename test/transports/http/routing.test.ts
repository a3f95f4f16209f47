import { useTestServer, serverUrl } from "herald/testing";
import { HTTP_APP } from "./fixture";

useTestServer({ appDir: HTTP_APP });

const api = (path: string) => `${serverUrl()}/api${path}`;

describe("routes beneath /api", () => {
  test("a :param route passes the decoded path param to the action", async () => {
    const response = await fetch(api("/users/42"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: { id: 42 } });
  });

  test("a fixed route wins over a :param route of the same shape", async () => {
    expect(await (await fetch(api("/users/me"))).json()).toEqual({ me: true });
  });

  test("the method selects the action among those on one route", async () => {
    const response = await fetch(api("/users/me"), { method: "DELETE" });
    expect(await response.json()).toEqual({ deleted: "me" });
  });

  test("a RegExp route passes its named groups as params", async () => {
    const response = await fetch(api("/files/reports/2024%20q1.pdf"));
    expect(await response.json()).toEqual({ path: "reports/2024 q1.pdf" });
  });

  test("a RegExp route passes its unnamed groups as params 0, 1 …, even with the g flag", async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await (await fetch(api("/archive/2024/05"))).json()).toEqual({ year: "2024", month: "05" });
    }
  });

  test("actions are not served outside the prefix", async () => {
    const response = await fetch(`${serverUrl()}/users/me`);
    expect(response.status).toBe(404);
    expect((await response.json()).error.type).toBe("CONNECTION_NOT_FOUND");
  });

  test("matching ignores case and one trailing slash, as in Express", async () => {
    expect(await (await fetch(api("/Users/ME/"))).json()).toEqual({ me: true });
  });

  test("HEAD is answered by the GET action, without a body", async () => {
    const response = await fetch(api("/users/me"), { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.text()).toBe("");
  });
});

describe("unknown routes and methods", () => {
  test("an unknown route is 404 CONNECTION_ACTION_NOT_FOUND with the core error body", async () => {
    const response = await fetch(api("/nope"), { method: "POST" });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body).toEqual({
      error: {
        message: "No action is served at POST /api/nope",
        type: "CONNECTION_ACTION_NOT_FOUND",
        key: "path",
        value: "/nope",
        timestamp: expect.any(String),
        stack: expect.any(String),
      },
    });
  });

  test("a known route with a wrong method is 405 with an Allow header", async () => {
    const response = await fetch(api("/echo"), { method: "PUT" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, GET, HEAD, OPTIONS");
    const body = await response.json();
    expect(body.error).toMatchObject({ type: "CONNECTION_METHOD_NOT_ALLOWED", key: "method", value: "PUT" });
  });

  test("Allow lists the methods of every route that matches the path", async () => {
    const response = await fetch(api("/users/me"), { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")!.split(", ").sort()).toEqual(["DELETE", "GET", "HEAD", "OPTIONS"]);
  });

  test("OPTIONS on a known route is 204 with an Allow header", async () => {
    const response = await fetch(api("/echo"), { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("POST, GET, HEAD, OPTIONS");
  });

  test("OPTIONS on an unknown route is 404", async () => {
    const response = await fetch(api("/nope"), { method: "OPTIONS" });
    expect(response.status).toBe(404);
  });

  test("a path param that is not valid percent-encoding is 400 CONNECTION_ACTION_PARAM_FORMATTING", async () => {
    const response = await fetch(api("/users/%E0%A4%A"));
    expect(response.status).toBe(400);
    expect((await response.json()).error.type).toBe("CONNECTION_ACTION_PARAM_FORMATTING");
  });
});
