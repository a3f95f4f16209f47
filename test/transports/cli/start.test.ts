import { join } from "node:path";
import { HeraldProcess } from "../../support/herald-process";

const root = join(__dirname, "../../..");

test("herald start at the repository root serves the sample app with no database server and stops cleanly on SIGTERM", async () => {
  const server = await HeraldProcess.start(root, { PGLITE_DATA_DIR: "memory://", DATABASE_URL: "", REDIS_URL: "" });
  let stopped = false;
  try {
    const status = await fetch(`${server.url}/api/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ healthy: true, services: { database: { healthy: true } } });
    const list = await fetch(`${server.url}/api/messages/list`);
    expect(await list.json()).toMatchObject({ messages: [], pagination: { page: 1, limit: 10, total: 0 } });
    expect(await server.stop()).toBe(0);
    stopped = true;
    expect(server.logs.some((line) => line.msg === "server stopped")).toBe(true);
  } finally {
    if (!stopped) await server.kill();
  }
});
