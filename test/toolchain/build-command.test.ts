import { computeActionsHash, createHerald, loadCachedSchemas } from "herald";
import { openApiCachePath } from "herald/toolchain";
import { herald } from "../support/cli";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../support/scratch-apps";

describe("herald build", () => {
  let scratch: string;
  let appDir: string;
  beforeAll(() => {
    scratch = makeScratchDir();
    appDir = copyFixtureApp("cli", scratch);
  });
  afterAll(() => removeScratchDir(scratch));

  test("writes the OpenAPI schema cache that a server with the same actions accepts", async () => {
    const run = await herald(["build", "-q"], { cwd: appDir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^wrote \.herald\/openapi-cache\.json: \d+ input schema\(s\), actions hash [0-9a-f]{12}\nderived \d+ response schema\(s\) from run's return type\n(?:warning: [^\n]+\n)*wrote \.herald\/compile-cache\.json: \d+ compiled module\(s\)\nwrote herald-client\.d\.ts: the types of \d+ action\(s\) for herald\/client\n$/,
    );

    const server = await createHerald({ appDir, logLevel: "silent" }).load();
    const cached = await loadCachedSchemas(openApiCachePath(appDir), computeActionsHash(server.registry));
    expect(cached).toBeDefined();
    expect(cached!["greet:say"]).toMatchObject({ type: "object", properties: { who: { type: "string" } } });
  });
});
