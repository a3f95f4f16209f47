import { planHttpRequest } from "../../src/client/http-request";

const origin = "http://127.0.0.1:8080";
const base = `${origin}/api`;

describe("the HTTP request of a call", () => {
  test("path params fill the route; a body method sends the rest as JSON", () => {
    const route = { method: "PATCH", paths: [{ template: "/user/{id}", params: ["id"] }] };
    expect(planHttpRequest("user:edit", route, origin, "/api", { id: 7, name: "Ada", tags: ["a"] })).toEqual({
      url: `${base}/user/7`,
      method: "PATCH",
      body: JSON.stringify({ name: "Ada", tags: ["a"] }),
    });
  });

  test("a body method with nothing left to send sends no body", () => {
    const route = { method: "DELETE", paths: [{ template: "/session", params: [] }] };
    expect(planHttpRequest("session:destroy", route, origin, "/api", {})).toEqual({ url: `${base}/session`, method: "DELETE", body: undefined });
  });

  test("GET sends the rest in the query string: arrays as repeated keys, dates as ISO text, undefined left out", () => {
    const route = { method: "GET", paths: [{ template: "/messages/list", params: [] }] };
    const plan = planHttpRequest("messages:list", route, origin, "/api", {
      page: 2,
      tag: ["a b", "c&d"],
      since: new Date("2026-01-02T03:04:05.000Z"),
      skipped: undefined,
      flag: false,
    });
    expect(plan).toEqual({
      url: `${base}/messages/list?page=2&tag=a+b&tag=c%26d&since=2026-01-02T03%3A04%3A05.000Z&flag=false`,
      method: "GET",
      body: undefined,
    });
  });

  test("a path param is encoded; a wildcard keeps its slashes as separators", () => {
    const route = { method: "GET", paths: [{ template: "/files/{path}/by/{owner}", params: ["path", "owner"] }] };
    expect(planHttpRequest("files:read", route, origin, "/api", { path: "a b/c?d", owner: "x/y" }).url).toBe(`${base}/files/a%20b/c%3Fd/by/x/y`);
    // As the server hands a wildcard to the action: its segments.
    expect(planHttpRequest("files:read", route, origin, "/api", { path: ["2024", "a/b"], owner: "x" }).url).toBe(`${base}/files/2024/a%2Fb/by/x`);
  });

  test("of a route's optional groups, the fullest path whose params are all given is taken", () => {
    const route = {
      method: "GET",
      paths: [
        { template: "/posts/{year}/{month}", params: ["year", "month"] },
        { template: "/posts/{year}", params: ["year"] },
        { template: "/posts", params: [] },
      ],
    };
    expect(planHttpRequest("posts:list", route, origin, "/api", { year: 2026, month: 11 }).url).toBe(`${base}/posts/2026/11`);
    expect(planHttpRequest("posts:list", route, origin, "/api", { year: 2026 }).url).toBe(`${base}/posts/2026`);
    expect(planHttpRequest("posts:list", route, origin, "/api", {}).url).toBe(`${base}/posts`);
  });

  test("a missing path param is a TypeError naming it, sent nowhere", () => {
    const route = { method: "GET", paths: [{ template: "/user/{user}", params: ["user"] }] };
    expect(() => planHttpRequest("user:view", route, origin, "/api", {})).toThrow(new TypeError("user:view: its route needs the param(s) user"));
  });

  test("an object in the URL is a TypeError: a query string holds only text", () => {
    const route = { method: "GET", paths: [{ template: "/search", params: [] }] };
    expect(() => planHttpRequest("search:run", route, origin, "/api", { filter: { a: 1 } })).toThrow(/the param "filter" is object, but it travels in the URL/);
    expect(() => planHttpRequest("search:run", route, origin, "/api", { filter: [null] })).toThrow(/the param "filter" is null/);
  });

  test("a route at the prefix itself adds no slash", () => {
    const route = { method: "GET", paths: [{ template: "/", params: [] }] };
    expect(planHttpRequest("home:view", route, origin, "/api", {}).url).toBe(base);
    expect(planHttpRequest("home:view", route, origin, "", {}).url).toBe(`${origin}/`);
  });
});
