import { z } from "zod";
import type { OpenAPIObject, ReferenceObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";
import { buildOpenApiDocument, errorBodySchema } from "herald";
import { serverUrl, testServer, useTestServer } from "herald/testing";
import { FIXTURE_APP } from "./support/fixture-actions";
import { validateOpenApi } from "./support/validate-openapi";

// The repository's package.json is the nearest one above the fixture app, so its version is the document's.
const { version } = require("../../package.json") as { version: string };

useTestServer({ appDir: FIXTURE_APP, env: { HTTP_BODY_LIMIT: "2kb", LOG_LEVEL: "fatal" } });

async function fetchDocument(): Promise<OpenAPIObject> {
  const response = await fetch(`${serverUrl()}/api/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as OpenAPIObject;
}

/** The JSON Schema of one documented response, its `$ref`s replaced by what they point at. */
function responseSchema(document: OpenAPIObject, response: ResponseObject | ReferenceObject): z.core.JSONSchema.JSONSchema {
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (!value || typeof value !== "object") return value;
    if ("$ref" in value && typeof value.$ref === "string") {
      let target: unknown = document;
      for (const segment of value.$ref.slice(2).split("/")) target = (target as Record<string, unknown>)[segment];
      return inline(target);
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner)]));
  };
  const resolved = inline(response) as ResponseObject;
  return resolved.content!["application/json"]!.schema as z.core.JSONSchema.JSONSchema;
}

describe("GET /api/openapi.json", () => {
  test("serves the document of the app's actions as JSON, and it is valid", async () => {
    const response = await fetch(`${serverUrl()}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const document = (await response.json()) as OpenAPIObject;
    expect(document).toEqual(
      JSON.parse(JSON.stringify(buildOpenApiDocument(testServer().registry, { title: "herald", version }))),
    );
    expect(document.paths).toHaveProperty(["/api/status", "get", "operationId"], "status");
    expect(document.paths).toHaveProperty(["/api/user/{id}", "patch", "operationId"], "user:update");
    await expect(validateOpenApi(document)).resolves.toEqual({ valid: true });
  });

  test("answers a revalidation with 304, and HEAD with headers only", async () => {
    const first = await fetch(`${serverUrl()}/api/openapi.json`);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${serverUrl()}/api/openapi.json`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    const head = await fetch(`${serverUrl()}/api/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(await first.text()));
    expect(await head.text()).toBe("");
  });

  test("refuses another method with 405 and the core error body", async () => {
    const response = await fetch(`${serverUrl()}/api/openapi.json`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const document = await fetchDocument();
    const schema = z.fromJSONSchema(responseSchema(document, document.components!.responses!.MethodNotAllowed!));
    expect(schema.safeParse(await response.json()).success).toBe(true);
  });
});

describe("GET /api/routes.json", () => {
  test("lists the method and path templates of every documented operation, by action, and nothing of its schemas", async () => {
    const response = await fetch(`${serverUrl()}/api/routes.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const routes = (await response.json()) as { prefix: string; actions: Record<string, { method: string; paths: { template: string; params: string[] }[] }> };
    expect(routes.prefix).toBe("/api");
    const document = await fetchDocument();
    const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${(operation as { operationId: string }).operationId.replace(/_\d+$/, "")}`),
    );
    const listed = Object.entries(routes.actions).flatMap(([name, route]) =>
      route.paths.map((path) => `${route.method} ${path.template === "/" ? "/api" : `/api${path.template}`} ${name}`),
    );
    expect(listed.sort()).toEqual(documented.sort());
    expect(routes.actions["user:update"]).toEqual({ method: "PATCH", paths: [{ template: "/user/{id}", params: ["id"] }] });
  });

  test("answers a revalidation with 304, and another method with 405", async () => {
    const first = await fetch(`${serverUrl()}/api/routes.json`);
    const again = await fetch(`${serverUrl()}/api/routes.json`, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${serverUrl()}/api/routes.json`, { method: "POST" })).status).toBe(405);
  });
});

describe("each documented path form reaches its action with the documented params", () => {
  test.each([
    ["a :param", "/api/user/{id}", "/api/user/1?fields=name&fields=email", { user: { id: 1, name: "Ada" } }],
    ["a RegExp named group", "/api/files/{name}", "/api/files/report.v2.pdf", { name: "report.v2.pdf" }],
    ["a wildcard", "/api/archive/{path}", "/api/archive/2024/05/notes.txt", { path: ["2024", "05", "notes.txt"] }],
    ["an optional group, present", "/api/posts/{tag}", "/api/posts/news", { tag: "news" }],
    ["an optional group, absent", "/api/posts", "/api/posts?tag=query", { tag: "query" }],
  ])("%s: %s", async (_form, template, url, expected) => {
    const document = await fetchDocument();
    expect(document.paths).toHaveProperty([template, "get"]);
    const response = await fetch(`${serverUrl()}${url}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expected);
  });
});

describe("each documented error response matches what the server really answers", () => {
  const cases: {
    name: string;
    request: [string, RequestInit?];
    status: number;
    type: string;
    documentedAt: (document: OpenAPIObject) => ResponseObject | ReferenceObject | undefined;
  }[] = [
    {
      name: "a validation failure",
      request: ["/api/user", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Al", email: "no", password: "short" }) }],
      status: 422,
      type: "CONNECTION_ACTION_PARAM_VALIDATION",
      documentedAt: (document) => document.paths!["/api/user"]!.put!.responses!["422"],
    },
    {
      name: "a missing param",
      request: ["/api/user", { method: "PUT", headers: { "Content-Type": "application/json" }, body: "{}" }],
      status: 422,
      type: "CONNECTION_ACTION_PARAM_REQUIRED",
      documentedAt: (document) => document.paths!["/api/user"]!.put!.responses!["422"],
    },
    {
      name: "a path param that fails validation",
      request: ["/api/user/zero"],
      status: 422,
      type: "CONNECTION_ACTION_PARAM_VALIDATION",
      documentedAt: (document) => document.paths!["/api/user/{id}"]!.get!.responses!["422"],
    },
    {
      name: "malformed JSON",
      request: ["/api/user", { method: "PUT", headers: { "Content-Type": "application/json" }, body: '{"name":' }],
      status: 400,
      type: "CONNECTION_ACTION_PARAM_FORMATTING",
      documentedAt: (document) => document.paths!["/api/user"]!.put!.responses!["400"],
    },
    {
      name: "a body over the limit",
      request: ["/api/user", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "x".repeat(4096) }) }],
      status: 413,
      type: "CONNECTION_PAYLOAD_TOO_LARGE",
      documentedAt: (document) => document.paths!["/api/user"]!.put!.responses!["413"],
    },
    {
      name: "a body of a type the action does not read",
      request: ["/api/user", { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "name=Ada" }],
      status: 415,
      type: "CONNECTION_UNSUPPORTED_MEDIA_TYPE",
      documentedAt: (document) => document.paths!["/api/user"]!.put!.responses!["415"],
    },
    {
      name: "a timeout",
      request: ["/api/slow"],
      status: 504,
      type: "CONNECTION_ACTION_TIMEOUT",
      documentedAt: (document) => document.paths!["/api/slow"]!.get!.responses!["504"],
    },
    {
      name: "an action that throws",
      request: ["/api/fail", { method: "POST" }],
      status: 500,
      type: "CONNECTION_ACTION_RUN",
      documentedAt: (document) => document.paths!["/api/fail"]!.post!.responses!["500"],
    },
    {
      name: "a TypedError the action throws",
      request: ["/api/user/7"],
      status: 404,
      type: "CONNECTION_NOT_FOUND",
      documentedAt: (document) => document.paths!["/api/user/{id}"]!.get!.responses!["404"],
    },
    {
      name: "an unknown path",
      request: ["/api/nothing/here"],
      status: 404,
      type: "CONNECTION_ACTION_NOT_FOUND",
      documentedAt: (document) => document.components!.responses!.NotFound,
    },
    {
      name: "a known path with another method",
      request: ["/api/ping", { method: "DELETE" }],
      status: 405,
      type: "CONNECTION_METHOD_NOT_ALLOWED",
      documentedAt: (document) => document.components!.responses!.MethodNotAllowed,
    },
  ];

  test.each(cases)("$name: $status $type", async ({ request: [path, init], status, type, documentedAt }) => {
    const document = await fetchDocument();
    const documented = documentedAt(document);
    expect(documented).toBeDefined();
    const response = await fetch(`${serverUrl()}${path}`, init);
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: { type: string } };
    expect(body.error.type).toBe(type);
    const parsed = z.fromJSONSchema(responseSchema(document, documented!)).safeParse(body);
    expect(parsed.error?.issues).toBeUndefined();
    expect(errorBodySchema.safeParse(body).success).toBe(true);
  });

  test("a secret that fails validation is documented writeOnly and never echoed", async () => {
    const document = await fetchDocument();
    const password = document.components!.schemas!["user.create.inputs"] as SchemaObject;
    expect(password.properties!.password).toMatchObject({ writeOnly: true, format: "password" });
    const response = await fetch(`${serverUrl()}/api/user`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Ada", email: "ada@example.com", password: "short" }),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { key: string; value?: unknown } };
    expect(body.error.key).toBe("password");
    expect(body.error).not.toHaveProperty("value");
  });
});

describe("the API reference page at /api/docs", () => {
  test("is an HTML page that loads Swagger UI from the server itself and renders the document", async () => {
    const response = await fetch(`${serverUrl()}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources).toEqual([
      "/api/docs/swagger-ui.css",
      "/api/docs/favicon-32x32.png",
      "/api/docs/favicon-16x16.png",
      "/api/docs/swagger-ui-bundle.js",
      "/api/docs/start.js",
    ]);
    for (const source of sources) {
      const asset = await fetch(`${serverUrl()}${source}`);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const start = await (await fetch(`${serverUrl()}/api/docs/start.js`)).text();
    expect(start).toContain('url: "/api/openapi.json"');
  });

  test("serves assets with their types and a day of caching", async () => {
    const css = await fetch(`${serverUrl()}/api/docs/swagger-ui.css`);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.headers.get("cache-control")).toBe("public, max-age=86400");
    const script = await fetch(`${serverUrl()}/api/docs/swagger-ui-bundle.js`, { method: "HEAD" });
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(Number(script.headers.get("content-length"))).toBeGreaterThan(100_000);
  });

  test("serves nothing else from the package folder, nor above it", async () => {
    for (const path of ["/api/docs/package.json", "/api/docs/index.html/../package.json", "/api/docs/..%2f..%2fpackage.json", "/api/docs/%2e%2e/%2e%2e/package.json"]) {
      const response = await fetch(`${serverUrl()}${path}`);
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { type: string } };
      expect(body.error.type).toMatch(/NOT_FOUND$/);
    }
  });
});
