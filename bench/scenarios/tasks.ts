import { setTimeout as sleep } from "node:timers/promises";
import BeeQueue from "bee-queue";
import { ProcessSpec, runToExit, ServerProcess } from "../lib/processes";
import { compare } from "../lib/comparison";
import { emptyResult, type Column } from "../lib/results";
import { alternate, rowsOf, type Subject } from "../lib/rounds";
import { connectRedis, REDIS_URL, removeKeys } from "../lib/bench-redis";
import type { Scenario } from "../lib/scenario";
import { subjectNode } from "../lib/subject-node";
import { join } from "node:path";
import { baselineSpec, heraldEnv, heraldSpec, otherBuild } from "../lib/subjects";
import { TASK_QUEUE } from "../shared/job";

interface TaskSubject extends Subject {
  /** Queues the jobs while no worker runs; resolves with the bee-queue key prefix they are under. */
  fill(prefix: string, jobs: number): Promise<string>;
  worker(prefix: string, concurrency: number): ProcessSpec;
}

/** A client of the bench queue that does not work it: to queue jobs and to read its counts. */
function queueClient(beeQueuePrefix: string): BeeQueue {
  return new BeeQueue(TASK_QUEUE, {
    prefix: beeQueuePrefix,
    redis: { url: REDIS_URL },
    isWorker: false,
    getEvents: false,
    sendEvents: false,
    storeJobs: false,
  });
}

/** Herald's workers, of this checkout or of the `--herald-before` build (`root`), filled and run by that build's own CLI and bench app. */
function heraldSubject(subject: string, label: string, workerLabel: string, root?: string): TaskSubject {
  const rootOf = root ?? join(__dirname, "../..");
  return {
    subject,
    label,
    async fill(prefix, jobs) {
      // Through the app's own bench:fill action (TaskService.enqueue), from the CLI.
      const env = heraldEnv({ REDIS_URL, TASKS_DRIVER: "redis", TASKS_PREFIX: prefix });
      const args = [join(rootOf, "dist/cli-entry.js"), "bench:fill", "--count", String(jobs), "-q"];
      const run = await runToExit({ label: `${label}: bench:fill`, command: subjectNode.command, args, cwd: join(rootOf, "bench/app"), env }, 120_000);
      if (run.code !== 0) throw new Error(`herald bench:fill failed (${run.code}): ${run.stderr.trim() || run.stdout.slice(0, 500)}`);
      // Herald's bee-queue driver keeps its queues under "<TASKS_PREFIX>:q".
      return `${prefix}:q`;
    },
    worker: (prefix, concurrency) =>
      heraldSpec(workerLabel, {
        ...(root ? { root } : {}),
        args: ["start", "--workers-only"],
        env: { REDIS_URL, TASKS_DRIVER: "redis", TASKS_PREFIX: prefix, TASKS_CONCURRENCY: String(concurrency), TASKS_RESULT_TTL: "60000" },
      }),
  };
}

const SUBJECTS: TaskSubject[] = [
  heraldSubject("herald", "Herald", "Herald workers"),
  {
    subject: "bee-queue",
    label: "raw bee-queue",
    async fill(prefix, jobs) {
      const producer = queueClient(prefix);
      try {
        for (let start = 0; start < jobs; start += 1000) {
          const batch = Array.from({ length: Math.min(1000, jobs - start) }, (_, offset) => producer.createJob({ n: start + offset }).retries(0));
          const errors = await producer.saveAll(batch);
          if (errors.size) throw errors.values().next().value;
        }
      } finally {
        await producer.close();
      }
      return prefix;
    },
    worker: (prefix, concurrency) => baselineSpec("raw bee-queue worker", "bee-queue-worker.ts", { REDIS_URL, BEE_QUEUE_PREFIX: prefix, CONCURRENCY: String(concurrency) }),
  },
];

const COLUMNS: Column[] = [
  { key: "jps", title: "jobs/s", digits: 0 },
  { key: "seconds", title: "drain s", digits: 2 },
  { key: "cpuUs", title: "worker CPU µs/job", digits: 0 },
];

/**
 * Polls the queue's counts until every job is done, from the moment the first job left the
 * waiting list: the worker's boot is not timed, only its throughput.
 */
async function timeDrain(monitor: BeeQueue, jobs: number, worker: ServerProcess, timeoutMs: number): Promise<{ seconds: number; cpuSeconds: number }> {
  const deadline = performance.now() + timeoutMs;
  let started: { at: number; cpu: number } | undefined;
  for (;;) {
    worker.assertRunning();
    const health = await monitor.checkHealth();
    const now = performance.now();
    if (health.failed > 0) throw new Error(`${health.failed} job(s) failed in ${worker.spec.label}`);
    if (started === undefined && (health.waiting < jobs || health.active > 0)) started = { at: now, cpu: worker.cpuSeconds() };
    if (started !== undefined && health.waiting === 0 && health.active === 0) {
      return { seconds: (now - started.at) / 1000, cpuSeconds: worker.cpuSeconds() - started.cpu };
    }
    if (now > deadline) throw new Error(`${worker.spec.label} did not finish ${jobs} jobs within ${timeoutMs} ms (${health.waiting} waiting)`);
    await sleep(5);
  }
}

/** Trivial jobs on Redis, drained by Herald's workers and by a raw bee-queue worker. */
export const tasksScenario: Scenario = {
  id: "tasks",
  title: "Task throughput",
  async run({ settings, log, servicesRequired }) {
    const { rounds, jobs, concurrency } = settings.tasks;
    const result = emptyResult(this.id, this.title, settings.tasks);
    const redis = await connectRedis(servicesRequired);
    try {
      const subjects = otherBuild.root ? [...SUBJECTS, heraldSubject("herald-before", "Herald, --herald-before build", "Herald workers (before)", otherBuild.root)] : SUBJECTS;
      const samples = await alternate(
        subjects,
        rounds,
        async (subject, round) => {
          const prefix = `herald-bench-${process.pid}-${subject.subject}-${round}`;
          const beeQueuePrefix = await subject.fill(prefix, jobs);
          const monitor = queueClient(beeQueuePrefix);
          let worker: ServerProcess | undefined;
          try {
            const waiting = (await monitor.checkHealth()).waiting;
            if (waiting !== jobs) throw new Error(`${subject.label}: ${waiting} jobs waiting after queueing ${jobs}`);
            worker = new ServerProcess(subject.worker(prefix, concurrency));
            const drained = await timeDrain(monitor, jobs, worker, 300_000);
            return { jps: jobs / drained.seconds, seconds: drained.seconds, cpuUs: (drained.cpuSeconds * 1e6) / jobs };
          } finally {
            await worker?.stop();
            await monitor.close();
            await removeKeys(redis, prefix);
          }
        },
        log,
      );
      result.columns = COLUMNS;
      result.rows = rowsOf(subjects, samples, COLUMNS);
      result.comparisons = [
        compare(result.rows, "herald", "bee-queue", "jps", "higher", 0.9),
        compare(result.rows, "herald", "bee-queue", "cpuUs", "lower"),
        ...(otherBuild.root ? [compare(result.rows, "herald", "herald-before", "jps", "higher"), compare(result.rows, "herald", "herald-before", "cpuUs", "lower")] : []),
      ];
      result.notes.push(
        `${jobs} jobs queued before the worker starts, concurrency ${concurrency}, Redis ${REDIS_URL}; timed from the first job taken to the queue empty; Herald logs one JSON line per job to /dev/null`,
      );
    } finally {
      redis.disconnect();
    }
    return result;
  },
};
