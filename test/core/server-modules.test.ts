import { execFile } from "node:child_process";
import { join } from "node:path";
import { CLI_RUN_TIMEOUT } from "../support/cli";

const DIST = join(__dirname, "../../dist");
const APP = join(__dirname, "../fixtures/apps/basic");

/** The Node.js modules a server started as `herald start` starts it has loaded, from a child process of its own. */
function modulesOfStartedServer(): Promise<string[]> {
  const script = `
    require("reflect-metadata");
    require(${JSON.stringify(join(DIST, "cli-program"))});
    require(${JSON.stringify(join(DIST, "toolchain/typescript-hook"))}).registerTypeScript(${JSON.stringify(APP)});
    const { createHerald } = require(${JSON.stringify(join(DIST, "herald"))});
    createHerald({ appDir: ${JSON.stringify(APP)}, runMode: "server", env: { ...process.env, PORT: "0", HOST: "127.0.0.1" }, overrides: [] })
      .start()
      .then(async (server) => {
        const loaded = process.moduleLoadList.filter((name) => name.startsWith("NativeModule "));
        await server.stop();
        process.stdout.write(JSON.stringify(loaded));
      });
  `;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["-e", script], { cwd: APP, env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "error", SESSION_SECRET: "server-modules-test-secret-0123456789abcdef" }, timeout: CLI_RUN_TIMEOUT }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as string[]);
    });
  });
}

test("a started server has not loaded node:repl, whose node:domain wraps every EventEmitter it makes", async () => {
  const loaded = await modulesOfStartedServer();
  expect(loaded).toContain("NativeModule http");
  expect(loaded.filter((name) => /^NativeModule (repl|domain)$/.test(name))).toEqual([]);
});
