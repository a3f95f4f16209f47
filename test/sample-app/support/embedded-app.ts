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
 * With `hold`, it prints `READY` after booting and stays up until SIGTERM.
 */
import { DataSource } from "typeorm";
import { Connection, CONNECTION_TYPE, SessionManager, startHerald } from "herald";

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
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? "{}") as Input;
  const server = await startHerald({
    appDir: input.appDir,
    env: { ...process.env, NODE_ENV: "test", PORT: "0", DATABASE_URL: "", PGLITE_DATA_DIR: input.dataDir },
    logDestination: 2,
  });
  if (input.hold) {
    process.once("SIGTERM", () => void server.stop().then(() => process.exit(0)));
    process.stdout.write("READY\n");
    return;
  }
  try {
    const browser = new Connection({ type: CONNECTION_TYPE.web, session: await server.container.resolve(SessionManager).open() });
    const call = async ({ action, params, via }: Call) => {
      const connection = via === "cli" ? new Connection({ type: CONNECTION_TYPE.cli }) : browser;
      const result = await server.runAction(action, params ?? {}, connection);
      const error = result.error && { type: result.error.type, message: result.error.message };
      return { status: result.status, response: result.response, error };
    };
    const results = [];
    for (const each of input.calls ?? []) results.push(await call(each));
    const concurrentResults = await Promise.all((input.concurrent ?? []).map(call));
    const dataSource = server.container.resolve(DataSource);
    const migrations = await dataSource.query('SELECT "name" FROM "migrations" ORDER BY "id"');
    const health = await server.health.report();
    process.stdout.write(`RESULT ${JSON.stringify({ results, concurrentResults, migrations, health })}\n`);
  } finally {
    await server.stop();
  }
}

main().catch((error: Error & { type?: string }) => {
  process.stdout.write(`RESULT ${JSON.stringify({ failure: { type: error.type, message: error.message } })}\n`);
  process.exitCode = 1;
});
