import { execFile } from "node:child_process";
import { join } from "node:path";
import { CLI_RUN_TIMEOUT } from "../support/cli";

const DIST = join(__dirname, "../../dist");
const APP = join(__dirname, "../fixtures/apps/basic");

interface LoadedModules {
  /** Node's own modules, as `process.moduleLoadList` names them. */
  builtIn: string[];
  /** The packages of node_modules with at least one file loaded. */
  packages: string[];
}

/** What a server started as `herald start` starts it has loaded, from a child process of its own; metrics on, as they are wherever they are read. */
function modulesOfStartedServer(): Promise<LoadedModules> {
  const script = `
    require("reflect-metadata");
    require(${JSON.stringify(join(DIST, "cli-program"))});
    require(${JSON.stringify(join(DIST, "toolchain/typescript-hook"))}).registerTypeScript(${JSON.stringify(APP)});
    const { createHerald } = require(${JSON.stringify(join(DIST, "herald"))});
    createHerald({ appDir: ${JSON.stringify(APP)}, runMode: "server", env: { ...process.env, PORT: "0", HOST: "127.0.0.1" }, overrides: [] })
      .start()
      .then(async (server) => {
        const builtIn = process.moduleLoadList.filter((name) => name.startsWith("NativeModule "));
        const packages = new Set();
        for (const file of Object.keys(require.cache)) {
          if (!file.includes("/node_modules/")) continue;
          const parts = file.split("/node_modules/").pop().split("/");
          packages.add(parts[0].startsWith("@") ? parts[0] + "/" + parts[1] : parts[0]);
        }
        await server.stop();
        process.stdout.write(JSON.stringify({ builtIn, packages: [...packages] }));
      });
  `;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["-e", script], { cwd: APP, env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "error", SESSION_SECRET: "server-modules-test-secret-0123456789abcdef", METRICS_TOKEN: "server-modules-test-metrics-token" }, timeout: CLI_RUN_TIMEOUT }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as LoadedModules);
    });
  });
}

let loaded: LoadedModules;

beforeAll(async () => {
  loaded = await modulesOfStartedServer();
}, CLI_RUN_TIMEOUT);

test("a started server has not loaded node:repl, whose node:domain wraps every EventEmitter it makes", () => {
  expect(loaded.builtIn).toContain("NativeModule http");
  expect(loaded.builtIn.filter((name) => /^NativeModule (repl|domain)$/.test(name))).toEqual([]);
});

test("a server of an app without a database, Redis, uploads or the text log format loads none of what serves them, nor the OpenAPI builder before its document is asked for", () => {
  expect(loaded.packages).toEqual(expect.arrayContaining(["pino", "zod", "ws"]));
  expect(loaded.packages.filter((name) => ["typeorm", "bee-queue", "ioredis", "redis", "croner", "multer", "pino-pretty", "openapi3-ts", "yaml"].includes(name))).toEqual([]);
});
