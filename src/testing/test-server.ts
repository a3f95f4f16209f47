import type { ProviderOverride } from "../core/container";
import type { HeraldServer } from "../core/server";
import { RUN_MODE } from "../core/constants";
import { createHerald } from "../herald";

export const HOOK_TIMEOUT = 60_000;

export interface TestServerOptions {
  /** The app to boot; found from the working directory when absent. */
  appDir?: string;
  /** Providers replaced in this server's child container before boot. */
  providers?: readonly ProviderOverride[];
  /** Extra environment, over `process.env`; `PORT` defaults to 0 (a free port). */
  env?: NodeJS.ProcessEnv;
  runMode?: RUN_MODE | `${RUN_MODE}`;
  logDestination?: number | NodeJS.WritableStream;
}

let current: HeraldServer | undefined;

/** Registers beforeAll/afterAll hooks that boot the app on a free port and stop it. */
export function useTestServer(options: TestServerOptions = {}): void {
  beforeAll(async () => {
    current = await startTestServer(options);
  }, HOOK_TIMEOUT);
  afterAll(async () => {
    const server = current;
    current = undefined;
    await server?.stop();
  }, HOOK_TIMEOUT);
}

/** Boots a server the way useTestServer does, for tests that manage its life themselves. */
export async function startTestServer(options: TestServerOptions = {}): Promise<HeraldServer> {
  const server = createHerald({
    ...(options.appDir ? { appDir: options.appDir } : {}),
    runMode: options.runMode ?? RUN_MODE.server,
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "test", PORT: "0", ...options.env },
    overrides: options.providers ?? [],
    ...(options.logDestination !== undefined ? { logDestination: options.logDestination } : {}),
  });
  return server.start();
}

/** The server booted by useTestServer in this test file. */
export function testServer(): HeraldServer {
  if (!current) throw new Error("No test server is running: call useTestServer() at the top of the test file");
  return current;
}

/** The URL the test server really bound to, with its resolved port. */
export function serverUrl(): string {
  const server = testServer();
  if (!server.url) throw new Error("The test server has no web transport listening, so it has no URL");
  return server.url;
}
