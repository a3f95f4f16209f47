import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Connection, CONNECTION_TYPE, HeraldConfig } from "herald";
import { startTestServer } from "herald/testing";
import { withEnvFiles } from "../../src/core/env-files";
import { herald } from "../support/cli";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../support/scratch-apps";

/** An app's settings from `.env`, `.env.<NODE_ENV>` and `.env.local`, under the real environment. */
let scratch: string;

beforeAll(() => {
  scratch = makeScratchDir();
});

afterAll(() => removeScratchDir(scratch));

function folderWith(name: string, files: Record<string, string>): string {
  const folder = join(scratch, name);
  mkdirSync(folder, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  return folder;
}

describe("withEnvFiles", () => {
  const folder = () =>
    folderWith("layers", {
      ".env": "A=from-env\nB=from-env\nC=from-env\n# a comment\nQUOTED=\"two words\"\n",
      ".env.development": "B=from-development\nC=from-development\n",
      ".env.test": "B=from-test\n",
      ".env.local": "C=from-local\n",
      ".env.example": "A=from-example\nEXAMPLE=yes\n",
    });

  it("reads .env, then .env.<NODE_ENV>, then .env.local, a later file's value winning; never .env.example", () => {
    const merged = withEnvFiles(folder(), { NODE_ENV: "development" });
    expect([merged.A, merged.B, merged.C, merged.QUOTED, merged.EXAMPLE]).toEqual(["from-env", "from-development", "from-local", "two words", undefined]);
    expect(withEnvFiles(folder(), { NODE_ENV: "test" }).B).toBe("from-test");
  });

  it("never takes from a file what the real environment has, even empty", () => {
    const merged = withEnvFiles(folder(), { NODE_ENV: "development", A: "real", C: "" });
    expect([merged.A, merged.B, merged.C]).toEqual(["real", "from-development", ""]);
  });

  it("takes NODE_ENV from .env when the environment has none, and is development without either", () => {
    expect(withEnvFiles(folderWith("env-in-file", { ".env": "NODE_ENV=test\n", ".env.test": "PICKED=test\n" }), {}).PICKED).toBe("test");
    expect(withEnvFiles(folderWith("no-env", { ".env.development": "PICKED=development\n" }), {}).PICKED).toBe("development");
  });

  it("leaves the environment as it is where the app has no env file", () => {
    expect(withEnvFiles(folderWith("bare", {}), { NODE_ENV: "test", A: "1" })).toEqual({ NODE_ENV: "test", A: "1" });
  });
});

const SHOW_ACTION = `import { Action, HeraldConfig } from "herald";

@Action({ name: "env:show" })
export class ShowEnv {
  constructor(private readonly config: HeraldConfig) {}
  async run() {
    return { setting: this.config.raw.GREETING ?? null, inProcess: process.env.GREETING ?? null, port: this.config.port };
  }
}
`;

test("a CLI command reads the app's .env, for Herald's settings and for the app's code that reads process.env; the real environment wins", async () => {
  const appDir = copyFixtureApp("cli", scratch);
  writeFileSync(join(appDir, "actions", "show-env.ts"), SHOW_ACTION);
  writeFileSync(join(appDir, ".env"), "GREETING=from-dotenv\nPORT=4567\n");
  writeFileSync(join(appDir, ".env.test"), "GREETING=from-dotenv-test\n");

  const fromFiles = await herald(["env:show", "-q"], { cwd: appDir, env: { GREETING: undefined, PORT: undefined } });
  expect({ code: fromFiles.code, stderr: fromFiles.stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(fromFiles.stdout)).toEqual({ response: { setting: "from-dotenv-test", inProcess: "from-dotenv-test", port: 4567 } });

  const fromEnvironment = await herald(["env:show", "-q"], { cwd: appDir, env: { GREETING: "from-shell", PORT: undefined } });
  expect(JSON.parse(fromEnvironment.stdout)).toEqual({ response: { setting: "from-shell", inProcess: "from-shell", port: 4567 } });
});

test("the test helpers' server reads the app's .env and .env.test too, under the environment they are given", async () => {
  const appDir = folderWith("test-helper-app", {
    "herald.config.ts": 'import { defineConfig } from "herald";\n\nexport default defineConfig({});\n',
    ".env": "GREETING=from-dotenv\nFAREWELL=from-dotenv\n",
    ".env.test": "FAREWELL=from-dotenv-test\n",
    "package.json": JSON.stringify({ name: "env-test-helper-app", version: "1.0.0" }),
  });
  const server = await startTestServer({ appDir, env: { NODE_ENV: "test", GREETING: "given", LOG_LEVEL: "fatal", REDIS_URL: "" } });
  try {
    const config = server.container.resolve(HeraldConfig);
    expect([config.raw.GREETING, config.raw.FAREWELL]).toEqual(["given", "from-dotenv-test"]);
    // Given an environment, the server leaves process.env alone: servers in one process keep their settings apart.
    expect(process.env.FAREWELL).toBeUndefined();
  } finally {
    await server.stop();
  }
});

test("a setting the app's middleware reads at boot comes from .env.test for the test helpers: no test file exports it by hand", async () => {
  const appDir = copyFixtureApp("cli-settings", folderWith("settings-app", {}));
  const env = { NODE_ENV: "test", ADMIN_API_KEY: undefined, LOG_LEVEL: "fatal", REDIS_URL: "" };
  await expect(startTestServer({ appDir, env })).rejects.toMatchObject({ message: expect.stringContaining("Invalid environment variable ADMIN_API_KEY") });

  const key = "from-dotenv-test-".padEnd(32, "k");
  writeFileSync(join(appDir, ".env.test"), `ADMIN_API_KEY=${key}\n`);
  const server = await startTestServer({ appDir, env });
  try {
    const purge = (apiKey: string) => server.runAction("admin:purge", { apiKey, olderThanDays: 3 }, new Connection({ type: CONNECTION_TYPE.cli }));
    expect(await purge(key)).toMatchObject({ status: 200, response: { purged: 3 } });
    expect(await purge("k".repeat(32))).toMatchObject({ status: 401 });
  } finally {
    await server.stop();
  }
});
