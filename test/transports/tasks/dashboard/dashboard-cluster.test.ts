import { join } from "node:path";
import { Connection, CONNECTION_TYPE, type HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { deleteKeys, REDIS_URL, uniquePrefix } from "../support";

const appDir = join(__dirname, "../../../fixtures/apps/tasks-dashboard");

/** Two servers on one Redis, as two processes of one app: what one records, the other shows. */
const prefix = uniquePrefix("tasks-dashboard-cluster");
const env = { REDIS_URL, TASKS_DRIVER: "redis", TASKS_PREFIX: prefix, LOG_LEVEL: "fatal" };
let first: HeraldServer;
let second: HeraldServer;

beforeAll(async () => {
  [first, second] = await Promise.all([startTestServer({ appDir, runMode: "workers", env }), startTestServer({ appDir, runMode: "workers", env })]);
}, HOOK_TIMEOUT);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await deleteKeys(prefix);
}, HOOK_TIMEOUT);

interface Overview {
  queues: { queue: string; completed: number }[];
  schedules: { action: string; lastRun: { jobId: string; status: string | null } | null }[];
}

async function overview(server: HeraldServer): Promise<Overview> {
  const result = await server.runAction("tasks:overview", {}, new Connection({ type: CONNECTION_TYPE.cli }));
  return result.response as Overview;
}

const hourly = (answer: Overview) => answer.schedules.find((schedule) => schedule.action === "jobs:hourly")!.lastRun;
const mailCompleted = (answer: Overview) => answer.queues.find((row) => row.queue === "mail")!.completed;

test("both show the one run of a period that either queued, and the same completed count", async () => {
  await waitFor(async () => hourly(await overview(first))?.status === "succeeded");
  const [seenByFirst, seenBySecond] = await Promise.all([overview(first), overview(second)]);
  expect(hourly(seenBySecond)).toEqual(hourly(seenByFirst));
  // One job for the period, though both servers started its schedule; whichever ran it, both count it.
  await waitFor(async () => mailCompleted(await overview(first)) === 1 && mailCompleted(await overview(second)) === 1);
  expect(mailCompleted(await overview(first))).toBe(1);
});
