import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer } from "herald/testing";
import { appManifest, appVersion } from "../../src/core/app-manifest";
import { HTTP_APP } from "../transports/http/fixture";

/** An app names and versions itself by its package.json: the status, the OpenAPI document, MCP's server info. */
test("without NAME, an app with its own package.json is called by its package name, at its version", async () => {
  const server = await startTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal", NAME: "" } });
  try {
    expect(server.config.name).toBe("herald-http-fixture");
    const status = await (await fetch(`${server.url}/api/status`)).json();
    expect(status).toMatchObject({ name: "herald-http-fixture", version: "3.1.4" });
    const document = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(document.info).toMatchObject({ title: "herald-http-fixture", version: "3.1.4" });
    const client = new ClientV1({ name: "manifest-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    expect(client.getServerVersion()).toMatchObject({ name: "herald-http-fixture", version: "3.1.4" });
    await client.close();
  } finally {
    await server.stop();
  }
});

test("NAME still names it", async () => {
  const server = await startTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal", NAME: "storefront" } });
  try {
    expect((await (await fetch(`${server.url}/api/status`)).json()).name).toBe("storefront");
  } finally {
    await server.stop();
  }
});

describe("appManifest", () => {
  const root = mkdtempSync(join(tmpdir(), "herald-manifest-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("is the nearest package.json at or above the app folder", () => {
    const repository = join(root, "repository");
    mkdirSync(join(repository, "apps/shop"), { recursive: true });
    writeFileSync(join(repository, "package.json"), JSON.stringify({ name: "monorepo", version: "2.0.0" }));
    expect(appManifest(join(repository, "apps/shop"))).toEqual({ name: "monorepo", version: "2.0.0" });
    writeFileSync(join(repository, "apps/package.json"), JSON.stringify({ name: "apps" }));
    expect(appManifest(join(repository, "apps"))).toEqual({ name: "apps" });
    expect(appVersion(join(repository, "apps"))).toBe("0.0.0");
  });

  test("an unreadable package.json names nothing", () => {
    const broken = join(root, "broken");
    mkdirSync(broken);
    writeFileSync(join(broken, "package.json"), "{ not json");
    expect(appManifest(broken)).toEqual({});
    expect(appVersion(broken)).toBe("0.0.0");
  });
});
