import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { HTTP_METHOD } from "herald";
import type { RegisteredAction } from "../../../src/core/registry";
import type { HttpMount } from "../../../src/core/ports/http-mount";
import { actionPath } from "../../../src/transports/http/action-path";
import type { ActionTarget } from "../../../src/transports/http/action-router";
import { corsForActions } from "../../../src/transports/http/cors";
import { compileRoutes } from "../../../src/transports/http/route-table";
import { ResponseCodec } from "../../../src/core/response-codec";
import { HttpAccessLog } from "../../../src/transports/http/access-log";
import pino from "pino";

/**
 * Which requests the action path takes and which it leaves to Express, over a real socket: a
 * server whose listener asks the action path first and answers "express" for what it leaves.
 * It takes every request beneath the API prefix but a mount's, and answers each itself.
 */

function registered(name: string, route: string, method: string, inputs?: z.ZodType): RegisteredAction {
  return { name, action: { name, inputs, web: { route, method }, run: () => undefined }, middleware: [] } as unknown as RegisteredAction;
}

const ACTIONS = [
  registered("get", "/items/:id", HTTP_METHOD.GET, z.object({ id: z.string() })),
  registered("post", "/items", HTTP_METHOD.POST, z.object({ name: z.string() })),
  registered("upload", "/files", HTTP_METHOD.POST, z.object({ file: z.file() })),
  registered("hooked", "/mounted/inside", HTTP_METHOD.GET),
];

let server: Server;
let base: string;
const ran: string[] = [];

function start(corsOrigins: string[]): Promise<void> {
  const routes = compileRoutes<ActionTarget>("/api", ACTIONS, (entry) => ({
    entry,
    route: `/api${String(entry.action.web!.route)}`,
    call: async (_req, res, params, query, requestId) => {
      ran.push(entry.name);
      res.end(JSON.stringify({ taken: entry.name, params, query: { ...(query as object) }, requestId }));
    },
  }));
  const mounts: HttpMount[] = [{ path: "/api/mounted", handler: () => undefined }];
  const taken = actionPath({
    routes,
    mounts,
    cors: corsOrigins.length > 0 ? corsForActions(corsOrigins) : undefined,
    crossSite: () => undefined,
    start: () => "id-1",
    failure: { codec: new ResponseCodec(true), bodyLimit: 1024, logger: console as never },
    access: new HttpAccessLog(pino({ level: "silent" })),
  });
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!taken(req, res)) res.end("express");
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => {
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resolve();
  }));
}

async function answer(path: string, init: RequestInit = {}): Promise<string> {
  const response = await fetch(base + path, init);
  return response.text();
}

/** A request whose target is sent as given (fetch would drop a `#` and send no absolute URL). */
function rawAnswer(target: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path: target, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

afterEach(async () => {
  ran.length = 0;
  await new Promise((resolve) => server.close(resolve));
});

describe("without CORS origins", () => {
  beforeEach(() => start([]));

  test("takes an action route's request, with its route params, query and request id", async () => {
    expect(JSON.parse(await answer("/api/items/7?tag=a&tag=b"))).toEqual({ taken: "get", params: { id: "7" }, query: { tag: ["a", "b"] }, requestId: "id-1" });
    expect(JSON.parse(await answer("/API/Items/7/"))).toMatchObject({ taken: "get" });
    expect((await fetch(`${base}/api/items/7`, { method: "HEAD" })).status).toBe(200);
    expect(ran).toEqual(["get", "get", "get"]);
    expect(JSON.parse(await answer("/api/items", { method: "POST", body: "{}", headers: { "content-type": "application/json", origin: "https://elsewhere.example" } }))).toMatchObject({ taken: "post" });
  });

  test("takes an action that reads multipart bodies", async () => {
    expect(JSON.parse(await answer("/api/files", { method: "POST", body: "x", headers: { "content-type": "text/plain" } }))).toMatchObject({ taken: "upload" });
  });

  test("splits a URL with a # or an absolute URL as Express would, with the full URL parser", async () => {
    expect(JSON.parse(await rawAnswer("/api/items/7#part?tag=a"))).toMatchObject({ taken: "get", params: { id: "7" }, query: {} });
    expect(JSON.parse(await rawAnswer("http://example.test/api/items/8?tag=c"))).toMatchObject({ taken: "get", params: { id: "8" }, query: { tag: "c" } });
  });

  test("answers a path under the prefix no route serves with 404", async () => {
    const response = await fetch(`${base}/api/nothing`);
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_NOT_FOUND", message: "No action is served at GET /api/nothing", key: "path", value: "/nothing" });
  });

  test("answers a method the route does not serve with 405 and Allow, OPTIONS with 204 and Allow", async () => {
    const wrong = await fetch(`${base}/api/items/7`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await wrong.json()).error).toMatchObject({ type: "CONNECTION_METHOD_NOT_ALLOWED", key: "method", value: "DELETE" });
    const options = await fetch(`${base}/api/items/7`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  test("answers a path param that is not valid percent-encoding with 400", async () => {
    const response = await fetch(`${base}/api/items/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_FORMATTING" });
    expect(ran).toEqual([]);
  });

  test.each([
    ["a path outside the prefix", "/items/7"],
    ["a path that only starts like the prefix", "/apiary"],
    ["a path beneath a mount", "/api/mounted/inside"],
  ] as const)("leaves %s to Express", async (_case, path) => {
    expect(await answer(path)).toBe("express");
    expect(ran).toEqual([]);
  });
});

describe("with CORS origins", () => {
  test("decorates a request from a listed origin, answers its preflight, and leaves one without Origin bare", async () => {
    await start(["https://app.example"]);
    const listed = await fetch(`${base}/api/items/7`, { headers: { origin: "https://app.example" } });
    expect(JSON.parse(await listed.text())).toMatchObject({ taken: "get" });
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(listed.headers.get("access-control-allow-credentials")).toBe("true");
    const preflight = await fetch(`${base}/api/items`, { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(preflight.headers.get("allow")).toBeNull();
    const bare = await fetch(`${base}/api/items/7`);
    expect(bare.headers.get("access-control-allow-origin")).toBeNull();
    expect(ran).toEqual(["get", "get"]);
  });

  test("with *, adds CORS headers to every request it takes", async () => {
    await start(["*"]);
    const response = await fetch(`${base}/api/items/7`);
    expect(JSON.parse(await response.text())).toMatchObject({ taken: "get" });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});
