import { join } from "node:path";
import { waitFor } from "herald/testing";
import { call } from "../reliability/support/http";
import { useTopology } from "./support/topology";

/**
 * Jobs on the topology of docs/deployment.md: three web processes and two `--workers-only`
 * processes behind HAProxy, on one Redis. Every process works the queues (a web process too);
 * a process killed with SIGKILL loses no job: its job is found stalled and run again elsewhere.
 */
const topology = useTopology("jobs", {
  appDir: join(__dirname, "fixtures/app"),
  // A stalled job (its worker killed) is taken back within a second, not bee-queue's five.
  env: { TASKS_STALL_INTERVAL: "1000" },
});

/** The labels `msg` was logged with, by every process of the topology, killed ones included. */
function labelsLogged(msg: string): string[] {
  return topology.processes.flatMap((herald) => herald.lines(msg).map((line) => line.label as string));
}

test("every job queued through the balancer runs to completion, while a worker holding one is killed with SIGKILL", async () => {
  // Each job holds its worker for 2 s: a job the victim has started is still in its hands when the kill comes.
  const queued = await call(`${topology.url}/api/jobs`, { method: "POST", body: { prefix: "killed", count: 40, ms: 2000 } });
  expect(queued.status).toBe(200);
  const labels = queued.body.labels as string[];

  const victim = topology.workers[0]!;
  await victim.waitForLines("jobs:work started", 1);
  victim.signal("SIGKILL");
  await victim.exited;
  const cutShort = victim.lines("jobs:work started").map((line) => line.label as string).filter((label) => !victim.lines("jobs:work done", { label }).length);
  expect(cutShort.length).toBeGreaterThan(0);

  await waitFor(() => labels.every((label) => labelsLogged("jobs:work done").includes(label)), { timeout: 60_000 });
  // What the killed worker held was run again by another process.
  const survivors = topology.processes.filter((herald) => herald !== victim);
  for (const label of cutShort) expect(survivors.some((herald) => herald.lines("jobs:work done", { label }).length > 0)).toBe(true);
  // At least once, as bee-queue delivers: a job done twice can only be one the killed worker held.
  const done = labelsLogged("jobs:work done");
  const twice = done.filter((label, i) => done.indexOf(label) !== i);
  for (const label of twice) expect(victim.lines("jobs:work started", { label }).length).toBeGreaterThan(0);
});

test("a recurring task runs once per period for the whole cluster", async () => {
  const periods = () => topology.processes.flatMap((herald) => herald.lines("jobs:tick ran").map((line) => line.period as number));
  const first = Math.max(0, ...periods());
  await waitFor(() => periods().filter((period) => period > first).length >= 4, { timeout: 30_000 });
  const seen = periods();
  expect(seen.filter((period, i) => seen.indexOf(period) !== i)).toEqual([]);
});
