import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import { computeActionsHash, generateOpenApiSchemas, HeraldServer, writeSchemasCache } from "herald";
import { openApiCachePath } from "herald/toolchain";
import { startTestServer } from "herald/testing";
import { FIXTURE_APP } from "./support/fixture-actions";

const quiet = { LOG_LEVEL: "fatal" };

async function withServer<T>(options: Parameters<typeof startTestServer>[0], use: (server: HeraldServer) => Promise<T>): Promise<T> {
  const server = await startTestServer(options);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

async function documentOf(server: HeraldServer, path = "/api/openapi.json"): Promise<OpenAPIObject> {
  const response = await fetch(`${server.url}${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as OpenAPIObject;
}

test("HTTP_API_PREFIX moves the document, the page and every path, as it moves the actions", async () => {
  await withServer({ appDir: FIXTURE_APP, env: { ...quiet, HTTP_API_PREFIX: "/v1" } }, async (server) => {
    const document = await documentOf(server, "/v1/openapi.json");
    expect(Object.keys(document.paths ?? {}).every((path) => path.startsWith("/v1/"))).toBe(true);
    expect((await fetch(`${server.url}/v1/status`)).status).toBe(200);
    const page = await fetch(`${server.url}/v1/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('src="/v1/docs/swagger-ui-bundle.js"');
    expect(await (await fetch(`${server.url}/v1/docs/start.js`)).text()).toContain('url: "/v1/openapi.json"');
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(404);
  });
});

describe("the schema cache at boot", () => {
  let appDir: string;

  beforeAll(async () => {
    // An app of its own, so the cache written here touches no other test's app.
    appDir = await mkdtemp(join(tmpdir(), "herald-openapi-app-"));
    const actions = relative(appDir, join(FIXTURE_APP, "actions"));
    await writeFile(join(appDir, "herald.config.js"), `module.exports = { actions: ${JSON.stringify(actions)} };\n`);
  });

  afterAll(async () => {
    await rm(appDir, { recursive: true, force: true });
  });

  function marked(schemas: ReturnType<typeof generateOpenApiSchemas>) {
    return { ...schemas, "user:create": { ...schemas["user:create"], description: "from the cache" } };
  }

  function signUpDescription(document: OpenAPIObject): unknown {
    return (document.components!.schemas!["user.create.inputs"] as SchemaObject).description;
  }

  test("is used when its hash matches the actions, and ignored when it does not", async () => {
    // What `herald build` does: boot the app in CLI mode, hash and generate from its registry.
    const cli = await startTestServer({ appDir, env: quiet, runMode: "cli" });
    const hash = computeActionsHash(cli.registry);
    const schemas = generateOpenApiSchemas(cli.registry);
    await cli.stop();
    await withServer({ appDir, env: quiet }, async (server) => {
      expect(computeActionsHash(server.registry)).toBe(hash);
      expect(signUpDescription(await documentOf(server))).toBeUndefined();
    });

    await writeSchemasCache(openApiCachePath(appDir), hash, marked(schemas));
    await withServer({ appDir, env: quiet }, async (server) => {
      expect(signUpDescription(await documentOf(server))).toBe("from the cache");
    });

    await writeSchemasCache(openApiCachePath(appDir), `${hash.slice(1)}0`, marked(schemas));
    await withServer({ appDir, env: quiet }, async (server) => {
      expect(signUpDescription(await documentOf(server))).toBeUndefined();
    });
  });

  test("a corrupt cache file is regenerated around, not a failed boot", async () => {
    await mkdir(dirname(openApiCachePath(appDir)), { recursive: true });
    await writeFile(openApiCachePath(appDir), "{ not json");
    await withServer({ appDir, env: quiet }, async (server) => {
      const document = await documentOf(server);
      expect(document.paths).toHaveProperty(["/api/user", "put", "operationId"], "user:create");
    });
  });
});
