import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { HTTP_METHOD } from "herald";
import type { RegisteredAction } from "../../../src/core/registry";
import type { HttpMount } from "../../../src/core/ports/http-mount";
import { type FastActionTarget, fastPath } from "../../../src/transports/http/fast-path";
import { compileRoutes } from "../../../src/transports/http/route-table";
import { ResponseCodec } from "../../../src/core/response-codec";

/**
 * Which requests the fast path takes and which it leaves to Express, over a real socket: a
 * server whose listener asks the fast path first and answers "express" for what it leaves.
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
  const routes = compileRoutes<FastActionTarget>("/api", ACTIONS, (entry) => ({
    entry,
    fastPath: entry.name !== "upload",
    call: async (_req, res, params, query, requestId) => {
      ran.push(entry.name);
      res.end(JSON.stringify({ fast: entry.name, params, query: { ...(query as object) }, requestId }));
    },
  }));
  const mounts: HttpMount[] = [{ path: "/api/mounted", handler: () => undefined }];
  const taken = fastPath({
    routes,
    mounts,
    corsOrigins,
    crossSite: () => undefined,
    start: () => "id-1",
    failure: { codec: new ResponseCodec(true), bodyLimit: 1024, logger: console as never },
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

afterEach(async () => {
  ran.length = 0;
  await new Promise((resolve) => server.close(resolve));
});

describe("without CORS origins", () => {
  beforeEach(() => start([]));

  test("takes an action route's request, with its route params, query and request id", async () => {
    expect(JSON.parse(await answer("/api/items/7?tag=a&tag=b"))).toEqual({ fast: "get", params: { id: "7" }, query: { tag: ["a", "b"] }, requestId: "id-1" });
    expect(JSON.parse(await answer("/API/Items/7/"))).toMatchObject({ fast: "get" });
    expect((await fetch(`${base}/api/items/7`, { method: "HEAD" })).status).toBe(200);
    expect(ran).toEqual(["get", "get", "get"]);
    expect(JSON.parse(await answer("/api/items", { method: "POST", body: "{}", headers: { "content-type": "application/json", origin: "https://elsewhere.example" } }))).toMatchObject({ fast: "post" });
  });

  test.each([
    ["a path outside the prefix", "/items/7", {}],
    ["a path under the prefix no route serves", "/api/nothing", {}],
    ["a method the route does not serve", "/api/items/7", { method: "DELETE" }],
    ["OPTIONS", "/api/items/7", { method: "OPTIONS" }],
    ["a path beneath a mount", "/api/mounted/inside", {}],
    ["an action that reads multipart bodies", "/api/files", { method: "POST", body: "x", headers: { "content-type": "text/plain" } }],
    ["a path param that is not valid percent-encoding", "/api/items/%E0%A4%A", {}],
  ] as const)("leaves %s to Express", async (_case, path, init) => {
    expect(await answer(path, init as RequestInit)).toBe("express");
    expect(ran).toEqual([]);
  });
});

describe("with CORS origins", () => {
  test("leaves a request with an Origin to Express, takes one without", async () => {
    await start(["https://app.example"]);
    expect(await answer("/api/items/7", { headers: { origin: "https://app.example" } })).toBe("express");
    expect(JSON.parse(await answer("/api/items/7"))).toMatchObject({ fast: "get" });
  });

  test("with *, leaves every request to Express, which adds CORS headers to each", async () => {
    await start(["*"]);
    expect(await answer("/api/items/7")).toBe("express");
  });
});
