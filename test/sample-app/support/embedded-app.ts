/**
 * Boots the sample app the way `npm start` does — the built `herald` package, the app's `.ts`
 * files through SWC — on embedded PGlite, runs the action calls given as JSON in argv[2], prints
 * one `RESULT <json>` line and stops. PGlite cannot run inside Jest's VM (it needs dynamic
 * `import()`), so its smoke test drives this script in a child process.
 *
 * Input: { appDir, dataDir, calls: [{ action, params, via? }], concurrent?: [{ action, params, via? }], hold?: boolean }
 * `calls` run one after the other, then `concurrent` all at once. They share one web connection
 * with a session, as a browser's requests do (so a `session:create` signs the later calls in),
 * unless `via: "cli"` runs one on a connection of its own, as the CLI would.
 * With `hold`, it prints `READY` after booting and stays up until SIGTERM. With `afterReload`, it
 * then reloads the app in place as `herald dev` does, and runs those calls on a new connection.
 */
import { DataSource } from "typeorm";
import { Connection, CONNECTION_TYPE, HeraldServer, SessionManager, startHerald } from "herald";
// herald dev's reload, from the built package: it is not part of the public surface.
import { reloadKeeping } from "../../../dist/core/kept-across-reloads";

interface Call {
  action: string;
  params?: Record<string, unknown>;
  via?: "cli";
}

interface Input {
  appDir: string;
  dataDir: string;
  calls?: Call[];
  concurrent?: Call[];
  hold?: boolean;
  afterReload?: Call[];
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? "{}") as Input;
  const boot = () =>
    startHerald({
      appDir: input.appDir,
      env: { ...process.env, NODE_ENV: "test", PORT: "0", DATABASE_URL: "", PGLITE_DATA_DIR: input.dataDir },
      logDestination: 2,
    });
  let server = await boot();
  if (input.hold) {
    process.once("SIGTERM", () => void server.stop().then(() => process.exit(0)));
    process.stdout.write("READY\n");
    return;
  }
  try {
    const results = await runCalls(server, input.calls ?? []);
    const concurrentResults = await Promise.all((input.concurrent ?? []).map(caller(server, await signedInBrowser(server))));
    let reloadResults;
    if (input.afterReload) {
      server = await reloadKeeping(() => server.stop(), boot, (error) => {
        throw error;
      });
      reloadResults = await runCalls(server, input.afterReload);
    }
    const dataSource = server.container.resolve(DataSource);
    const migrations = await dataSource.query('SELECT "name" FROM "migrations" ORDER BY "id"');
    const health = await server.health.report();
    process.stdout.write(`RESULT ${JSON.stringify({ results, concurrentResults, reloadResults, migrations, health })}\n`);
  } finally {
    await server.stop();
  }
}

const browsers = new WeakMap<HeraldServer, Connection>();

/** The web connection with a session that a server's calls share, as a browser's requests do. */
async function signedInBrowser(server: HeraldServer): Promise<Connection> {
  let browser = browsers.get(server);
  if (!browser) {
    browser = new Connection({ type: CONNECTION_TYPE.web, session: await server.container.resolve(SessionManager).open() });
    browsers.set(server, browser);
  }
  return browser;
}

function caller(server: HeraldServer, browser: Connection) {
  return async ({ action, params, via }: Call) => {
    const connection = via === "cli" ? new Connection({ type: CONNECTION_TYPE.cli }) : browser;
    const result = await server.runAction(action, params ?? {}, connection);
    const error = result.error && { type: result.error.type, message: result.error.message };
    return { status: result.status, response: result.response, error };
  };
}

/** Runs `calls` one after the other. */
async function runCalls(server: HeraldServer, calls: Call[]) {
  const call = caller(server, await signedInBrowser(server));
  const results = [];
  for (const each of calls) results.push(await call(each));
  return results;
}

main().catch((error: Error & { type?: string }) => {
  process.stdout.write(`RESULT ${JSON.stringify({ failure: { type: error.type, message: error.message } })}\n`);
  process.exitCode = 1;
});
