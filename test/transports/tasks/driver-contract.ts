import { randomUUID } from "node:crypto";
import { ErrorType } from "herald";
import { waitFor } from "herald/testing";
import type { JobHandler, NewJob, QueueDriver, RunningJob } from "../../../src/transports/tasks/driver";
import { JobFailure } from "../../../src/transports/tasks/job-failure";

const NO_RETRY: Pick<NewJob, "retries" | "backoff"> = { retries: 0, backoff: { strategy: "fixed", delayMs: 0 } };

function job(params: Record<string, unknown> = {}, options: Partial<NewJob> = {}): NewJob {
  return { payload: { action: "test:run", params }, ...NO_RETRY, ...options };
}

function failure(message: string, retryable = true): JobFailure {
  return new JobFailure({ message, type: ErrorType.CONNECTION_ACTION_RUN, timestamp: new Date().toISOString() }, retryable);
}

/** A latch a test opens when it wants a held job to finish. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * The behaviour every queue driver must have. Each test works its own queue names, so a
 * driver over a shared backend sees nothing of the others.
 */
export function describeDriverContract(name: string, createDriver: () => QueueDriver): void {
  describe(`${name} queue driver contract`, () => {
    let driver: QueueDriver;
    let queue: string;

    beforeEach(() => {
      driver = createDriver();
      queue = `q-${randomUUID().slice(0, 8)}`;
    });

    afterEach(async () => {
      await driver.close();
    });

    test("runs a job once and keeps its result", async () => {
      const seen: RunningJob[] = [];
      await driver.process(queue, 1, async (running) => {
        seen.push(running);
        return { doubled: (running.payload.params.n as number) * 2 };
      });
      const [id] = await driver.enqueue(queue, [job({ n: 21 })]);

      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
      expect(await driver.getJob(queue, id!)).toMatchObject({
        id,
        queue,
        action: "test:run",
        params: { n: 21 },
        status: "succeeded",
        attempts: 1,
        result: { doubled: 42 },
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ id, queue, attempt: 1, payload: { action: "test:run", params: { n: 21 } } });
    });

    test("knows a job all along, from its enqueue through its end", async () => {
      await driver.process(queue, 4, async (running) => running.payload.params);
      const ids = await driver.enqueue(queue, Array.from({ length: 200 }, (_, n) => job({ n })));
      const seen = new Set<string>();
      let unfinished = ids;

      // Only unfinished jobs are read again: reading all 200 in a tight loop competes with the
      // worker for Redis and the CPU, so the jobs would end at the pace of the polling.
      await waitFor(
        async () => {
          const infos = await Promise.all(unfinished.map((id) => driver.getJob(queue, id)));
          for (const info of infos) seen.add(info?.status ?? "unknown");
          unfinished = unfinished.filter((_, index) => infos[index]?.status !== "succeeded");
          return unfinished.length === 0;
        },
        { interval: 0, timeout: 60_000 },
      );
      const ended = await Promise.all(ids.map((id) => driver.getJob(queue, id)));
      expect(ended.map((info) => info?.status)).toEqual(ids.map(() => "succeeded"));
      expect(seen.has("unknown")).toBe(false);
    }, 90_000);

    test("counts waiting jobs until a worker takes them", async () => {
      await driver.enqueue(queue, [job(), job(), job()]);
      expect(await driver.stats(queue)).toEqual({ waiting: 3, active: 0, delayed: 0, failed: 0, completed: 0 });

      let ran = 0;
      await driver.process(queue, 2, async () => void (ran += 1));
      await waitFor(() => ran === 3);
      await waitFor(async () => (await driver.stats(queue)).waiting === 0);
    });

    test("counts the jobs that succeeded, a failed one once a retry of it succeeds", async () => {
      let failing = true;
      await driver.process(queue, 2, async (running) => {
        if (running.payload.params.fails && failing) throw failure("not yet", false);
        return { ok: true };
      });
      // A fan-out child's outcome is written another way (by a script) on Redis: it counts the same.
      const child: NewJob = { payload: { action: "test:run", params: {}, fanOut: { id: `fan-${queue}`, index: 0 } }, ...NO_RETRY };
      const [failed] = await driver.enqueue(queue, [job({ fails: true }), job(), job(), child]);

      await waitFor(async () => (await driver.stats(queue)).completed === 3 && (await driver.stats(queue)).failed === 1);
      failing = false;
      expect(await driver.retry(queue, failed!)).toBe(true);
      await waitFor(async () => (await driver.stats(queue)).completed === 4);
      expect(await driver.stats(queue)).toMatchObject({ failed: 0, completed: 4 });
    });

    test("keeps the last run of each schedule, for whoever reads it", async () => {
      const action = `test:${queue}`;
      expect(await driver.scheduledRuns([action])).toEqual([undefined]);
      await driver.recordScheduledRun(action, { at: 1000, jobId: "first" });
      await driver.recordScheduledRun(action, { at: 2000, jobId: "second" });
      expect(await driver.scheduledRuns([action, `${action}:other`])).toEqual([{ at: 2000, jobId: "second" }, undefined]);
      expect(await driver.scheduledRuns([])).toEqual([]);
    });

    test("holds a delayed job until its time", async () => {
      let ranAt = 0;
      await driver.process(queue, 1, async () => void (ranAt = Date.now()));
      const enqueuedAt = Date.now();
      const [id] = await driver.enqueue(queue, [job({}, { delayMs: 400 })]);

      expect((await driver.getJob(queue, id!))?.status).toBe("delayed");
      expect((await driver.stats(queue)).delayed).toBe(1);
      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
      expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(400 - 5);
    });

    test("retries with backoff, then keeps the job as failed with its error", async () => {
      const attempts: number[] = [];
      await driver.process(queue, 1, async (running) => {
        attempts.push(running.attempt);
        throw failure(`boom ${running.attempt}`);
      });
      const [id] = await driver.enqueue(queue, [job({}, { retries: 2, backoff: { strategy: "exponential", delayMs: 20 } })]);

      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "failed");
      expect(attempts).toEqual([1, 2, 3]);
      const failed = await driver.getJob(queue, id!);
      expect(failed).toMatchObject({ status: "failed", attempts: 3, error: { message: "boom 3", type: "CONNECTION_ACTION_RUN" } });
      expect(failed).not.toHaveProperty("result");
      expect(await driver.failed(queue, 10)).toEqual([expect.objectContaining({ id, error: expect.objectContaining({ message: "boom 3" }) })]);
      expect((await driver.stats(queue)).failed).toBe(1);
    });

    test("succeeds on a retry after passing failures", async () => {
      await driver.process(queue, 1, async (running) => {
        if (running.attempt < 3) throw failure("not yet");
        return "third time";
      });
      const [id] = await driver.enqueue(queue, [job({}, { retries: 5, backoff: { strategy: "fixed", delayMs: 10 } })]);

      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
      expect(await driver.getJob(queue, id!)).toMatchObject({ attempts: 3, result: "third time" });
    });

    test("fails at once on an error a retry cannot fix", async () => {
      let runs = 0;
      await driver.process(queue, 1, async () => {
        runs += 1;
        throw failure("bad params", false);
      });
      const [id] = await driver.enqueue(queue, [job({}, { retries: 3, backoff: { strategy: "fixed", delayMs: 10 } })]);

      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "failed");
      expect(runs).toBe(1);
    });

    test("treats any other rejection as a retryable failure", async () => {
      let runs = 0;
      await driver.process(queue, 1, async () => {
        runs += 1;
        throw new Error("plain");
      });
      const [id] = await driver.enqueue(queue, [job({}, { retries: 1, backoff: { strategy: "fixed", delayMs: 10 } })]);

      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "failed");
      expect(runs).toBe(2);
      expect((await driver.getJob(queue, id!))?.error).toMatchObject({ message: "plain" });
    });

    test("fails and retries an attempt that aborted its own controller, as a timeout does", async () => {
      const attempts: number[] = [];
      await driver.process(queue, 1, async (running) => {
        attempts.push(running.attempt);
        if (running.attempt === 1) {
          const timedOut = failure("timed out");
          running.controller.abort(timedOut);
          throw timedOut;
        }
        return "after the timeout";
      });
      const [id] = await driver.enqueue(queue, [job({}, { retries: 1, backoff: { strategy: "fixed", delayMs: 10 } })]);

      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
      expect(attempts).toEqual([1, 2]);
      expect(await driver.getJob(queue, id!)).toMatchObject({ attempts: 2, result: "after the timeout" });
    });

    test("retries a failed job on request", async () => {
      let fail = true;
      await driver.process(queue, 1, async () => {
        if (fail) throw failure("down");
        return "up";
      });
      const [id] = await driver.enqueue(queue, [job()]);
      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "failed");

      fail = false;
      expect(await driver.retry(queue, id!)).toBe(true);
      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
      expect(await driver.getJob(queue, id!)).toMatchObject({ result: "up", attempts: 2 });
      expect(await driver.retry(queue, id!)).toBe(false);
      expect(await driver.failed(queue, 10)).toEqual([]);
    });

    test("de-duplicates a given job id, also after the job succeeded", async () => {
      const runs: unknown[] = [];
      const jobId = `report-${randomUUID()}`;
      const first = await driver.enqueue(queue, [job({ copy: 1 }, { jobId }), job({ copy: 2 }, { jobId })]);
      expect(first).toEqual([jobId, jobId]);

      await driver.process(queue, 2, async (running) => void runs.push(running.payload.params.copy));
      await waitFor(async () => (await driver.getJob(queue, jobId))?.status === "succeeded");
      expect(await driver.enqueue(queue, [job({ copy: 3 }, { jobId })])).toEqual([jobId]);
      expect((await driver.stats(queue)).waiting).toBe(0);
      expect(runs).toEqual([1]);
    });

    test("runs no more jobs at once than its concurrency", async () => {
      let running = 0;
      let highest = 0;
      const release = latch();
      await driver.process(queue, 2, async () => {
        running += 1;
        highest = Math.max(highest, running);
        await release.promise;
        running -= 1;
      });
      const ids = await driver.enqueue(queue, [job(), job(), job(), job()]);

      await waitFor(() => running === 2);
      expect((await driver.stats(queue)).active).toBe(2);
      release.open();
      await waitFor(async () => (await Promise.all(ids.map((id) => driver.getJob(queue, id)))).every((info) => info?.status === "succeeded"));
      expect(highest).toBe(2);
    });

    test("finishes the jobs in hand when stopped gracefully", async () => {
      const release = latch();
      let started = false;
      await driver.process(queue, 1, async () => {
        started = true;
        await release.promise;
        return "finished";
      });
      const [id] = await driver.enqueue(queue, [job()]);
      await waitFor(() => started);

      const stopping = driver.stopWorkers(10_000);
      release.open();
      expect(await stopping).toBe(0);
      expect(await driver.getJob(queue, id!)).toMatchObject({ status: "succeeded", result: "finished" });
    });

    test("hands a job cut off by a stop to the next worker, never losing it", async () => {
      const attempts: string[] = [];
      let signalled = false;
      const hang: JobHandler = (running) =>
        new Promise((_, reject) => {
          attempts.push("cut");
          running.controller.signal.addEventListener("abort", () => {
            signalled = true;
            reject(running.controller.signal.reason);
          });
        });
      await driver.process(queue, 1, hang);
      const [id] = await driver.enqueue(queue, [job({ n: 1 })]);
      await waitFor(() => attempts.length === 1);

      expect(await driver.stopWorkers(50)).toBe(1);
      expect(signalled).toBe(true);
      await driver.process(queue, 1, async (running) => {
        attempts.push("again");
        return running.payload.params;
      });
      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded", { timeout: 10_000 });
      expect(attempts).toEqual(["cut", "again"]);
      expect((await driver.getJob(queue, id!))?.result).toEqual({ n: 1 });
    });

    test("removes a job", async () => {
      const [id] = await driver.enqueue(queue, [job()]);
      await driver.remove(queue, id!);
      expect(await driver.getJob(queue, id!)).toBeUndefined();
      expect((await driver.stats(queue)).waiting).toBe(0);
    });

    test("aborts the signal of a job it runs, with the reason given; a job it does not run is no abort", async () => {
      const started = latch();
      let seenReason: unknown;
      await driver.process(queue, 1, (running) => {
        started.open();
        return new Promise((_resolve, reject) =>
          running.controller.signal.addEventListener("abort", () => {
            seenReason = running.controller.signal.reason;
            reject(new JobFailure({ message: "stopped", type: ErrorType.CONNECTION_CLIENT_GONE, timestamp: new Date().toISOString() }, false));
          }),
        );
      });
      const [id] = await driver.enqueue(queue, [job()]);
      await started.promise;
      const reason = new Error("cancelled");
      expect(driver.abort(queue, id!, reason)).toBe(true);
      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "failed");
      expect(seenReason).toBe(reason);
      expect(driver.abort(queue, id!, reason)).toBe(false);
      expect(driver.abort(queue, "no-such-job", reason)).toBe(false);
    });

    test("keeps what a running job reports of its progress", async () => {
      const reported = latch();
      const finish = latch();
      await driver.process(queue, 1, async (running) => {
        await running.reportProgress({ progress: 2, total: 5, message: "two of five" });
        reported.open();
        await finish.promise;
        return null;
      });
      const [id] = await driver.enqueue(queue, [job()]);
      await reported.promise;
      expect((await driver.getJob(queue, id!))?.progress).toEqual({ progress: 2, total: 5, message: "two of five" });
      finish.open();
      await waitFor(async () => (await driver.getJob(queue, id!))?.status === "succeeded");
    });

    test("knows nothing of an unknown job", async () => {
      expect(await driver.getJob(queue, "no-such-job")).toBeUndefined();
    });

    test("collects the outcomes of a fan-out's children", async () => {
      const fanOutId = randomUUID();
      expect(await driver.createFanOut({ id: fanOutId, action: "test:run", queue, total: 3, createdAt: 1 })).toBe(true);
      expect(await driver.createFanOut({ id: fanOutId, action: "test:run", queue, total: 3, createdAt: 2 })).toBe(false);
      await driver.process(queue, 3, async (running) => {
        const n = running.payload.params.n as number;
        if (n === 2) throw failure("two is odd here", false);
        return n * 10;
      });
      await driver.enqueue(
        queue,
        [1, 2, 3].map((n, index) => ({ payload: { action: "test:run", params: { n }, fanOut: { id: fanOutId, index } }, ...NO_RETRY })),
      );

      await waitFor(async () => (await driver.fanOut(fanOutId))?.complete === true);
      expect(await driver.fanOut(fanOutId)).toEqual({
        id: fanOutId,
        action: "test:run",
        queue,
        total: 3,
        createdAt: 1,
        succeeded: 2,
        failed: 1,
        pending: 0,
        complete: true,
        results: [10, null, 30],
        errors: [{ index: 1, error: expect.objectContaining({ message: "two is odd here" }) }],
      });
      expect(await driver.fanOut(randomUUID())).toBeUndefined();
    });

    test("grants a claim to one caller until it expires", async () => {
      const key = `lock-${randomUUID()}`;
      expect(await driver.claim(key, 200)).toBe(true);
      expect(await driver.claim(key, 200)).toBe(false);
      await waitFor(() => driver.claim(key, 200));
    });

    test("answers a ping", async () => {
      await expect(driver.ping()).resolves.toBeUndefined();
    });
  });
}
