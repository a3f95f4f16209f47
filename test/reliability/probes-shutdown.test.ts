import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { HeraldProcess } from "./support/herald-process";
import { call } from "./support/http";
import { getOver, refusesConnections } from "./support/kept-alive";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "./support/shared-redis";

/** `/readyz` of a real `herald start` process turns 503 at SIGTERM, while the calls in flight still finish. */
const appDir = join(__dirname, "fixtures/app");
const name = uniqueAppName("probes-shutdown");
const processes: HeraldProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), "herald-probes-"));

async function start(env: NodeJS.ProcessEnv = {}): Promise<HeraldProcess> {
  const herald = await HeraldProcess.start(appDir, { REDIS_URL: SHARED_REDIS_URL, NAME: name, HTTP_SHUTDOWN_TIMEOUT: "60000", ...env });
  processes.push(herald);
  return herald;
}

afterAll(async () => {
  for (const herald of processes) await herald.kill();
  await deleteAppKeys(name);
  rmSync(scratch, { recursive: true, force: true });
}, HOOK_TIMEOUT);

test("at SIGTERM /readyz turns 503 over a kept-alive connection while the listener drains, and the call in flight still finishes", async () => {
  const herald = await start();
  const release = join(scratch, "release-in-flight");
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect(await getOver(agent, `${herald.url}/readyz`)).toMatchObject({ status: 200, body: { status: "ok" }, reusedSocket: false });
    const inFlight = call(`${herald.url}/api/until-file?path=${encodeURIComponent(release)}&label=in-flight`);
    await herald.waitForLines("slow:until-file started", 1, { label: "in-flight" });

    herald.signal("SIGTERM");
    await waitFor(() => refusesConnections(herald.url), { timeout: 10_000 });

    expect(await getOver(agent, `${herald.url}/readyz`)).toMatchObject({
      status: 503,
      connection: "close",
      reusedSocket: true,
      body: { status: "unready", reason: "shutting down" },
    });
    writeFileSync(release, "");
    expect(await inFlight).toMatchObject({ status: 200, body: { label: "in-flight" } });
    expect(await herald.exited).toBe(0);
  } finally {
    agent.destroy();
  }
});

test("with SHUTDOWN_DELAY, /readyz is 503 from SIGTERM while new connections are still served", async () => {
  const herald = await start({ SHUTDOWN_DELAY: "600000" });
  expect((await call(`${herald.url}/readyz`)).status).toBe(200);

  herald.signal("SIGTERM");
  await herald.waitForLines("stopping", 1);

  expect(await call(`${herald.url}/readyz`)).toMatchObject({ status: 503, body: { status: "unready", reason: "shutting down" } });
  expect(await call(`${herald.url}/livez`)).toMatchObject({ status: 200, body: { status: "ok" } });
  expect(await call(`${herald.url}/api/plain?text=still-served`)).toMatchObject({ status: 200, body: { text: "still-served" } });
  expect(await refusesConnections(herald.url)).toBe(false);
});
