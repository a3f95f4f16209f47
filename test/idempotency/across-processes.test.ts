import { join } from "node:path";
import { HOOK_TIMEOUT, waitFor } from "herald/testing";
import { herald } from "../support/cli";
import { HeraldProcess } from "../support/herald-process";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../reliability/support/shared-redis";

/**
 * Idempotency keys across processes on one Redis: the command line's `--idempotency-key`, each run
 * its own process, and two servers, a retry landing on the other one.
 */
const APP = join(__dirname, "../fixtures/apps/idempotency");
const NAME = uniqueAppName("idempotency");
const env = { REDIS_URL: SHARED_REDIS_URL, NAME };

afterAll(() => deleteAppKeys(NAME));

describe("herald <action> --idempotency-key", () => {
  test("a second run with the key prints the first run's answer, marked as replayed; other flags are refused", async () => {
    const first = await herald(["order:place", "--item", "tea", "--idempotency-key", "cli-1", "-q"], { cwd: APP, env });
    expect(first.code).toBe(0);
    const { response } = JSON.parse(first.stdout) as { response: { order: { pid: number } } };

    const retry = await herald(["order:place", "--item", "tea", "--idempotency-key", "cli-1", "-q"], { cwd: APP, env });
    expect(retry.code).toBe(0);
    // The first run's process answered, not this one: nothing ran again.
    expect(JSON.parse(retry.stdout)).toEqual({ replayed: true, response });

    const other = await herald(["order:place", "--item", "coffee", "--idempotency-key", "cli-1", "-q"], { cwd: APP, env });
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout).error).toMatchObject({ type: "CONNECTION_ACTION_PARAM_VALIDATION", key: "idempotencyKey" });
  }, HOOK_TIMEOUT);

  test("the flag is listed in the command's help", async () => {
    const help = await herald(["order:place", "--help"], { cwd: APP, env });
    expect(help.stdout).toMatch(/--idempotency-key\s+Run once for this key/);
  }, HOOK_TIMEOUT);
});

describe("two servers on one Redis", () => {
  let one: HeraldProcess;
  let two: HeraldProcess;
  beforeAll(async () => {
    [one, two] = await Promise.all([HeraldProcess.start(APP, env), HeraldProcess.start(APP, env)]);
  }, HOOK_TIMEOUT);
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  }, HOOK_TIMEOUT);

  const post = (server: HeraldProcess, path: string, body: unknown, key: string) =>
    fetch(`${server.url}/api${path}`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": key }, body: JSON.stringify(body) });
  const state = async (server: HeraldProcess) => (await (await fetch(`${server.url}/api/runs`)).json()) as { runs: number; held: number };

  test("a retry landing on the other server gets the first answer without running", async () => {
    const first = await post(one, "/orders", { item: "tea" }, "servers-1");
    expect(first.status).toBe(200);
    const answer = await first.json();
    const retry = await post(two, "/orders", { item: "tea" }, "servers-1");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.json()).toEqual(answer);
    expect((await state(two)).runs).toBe(0);
  });

  test("a retry on the other server while the first still runs gets 409", async () => {
    const first = post(one, "/orders", { item: "cake", hold: true }, "servers-2");
    await waitFor(async () => (await state(one)).held === 1);
    const during = await post(two, "/orders", { item: "cake", hold: true }, "servers-2");
    expect(during.status).toBe(409);
    await post(one, "/gate", {}, "servers-gate");
    expect((await first).status).toBe(200);
  });

  test("racing calls with one key on both servers run once", async () => {
    const answers = await Promise.all([one, two, one, two].map((server) => post(server, "/orders", { item: "pie" }, "servers-3")));
    const ran = answers.filter((answer) => answer.status === 200 && answer.headers.get("idempotent-replayed") === null);
    expect(ran).toHaveLength(1);
    // The others were told it was running (409) or were given its answer.
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
  });
});
