import { Writable } from "node:stream";
import { ErrorType, LogFormat, LogLevel } from "herald";
import { createLogger } from "../../../src/core/logger";
import { CronScheduler, type CronTask } from "../../../src/transports/tasks/cron-scheduler";
import { describeSchedule, nextRunAfter, recurrenceOf } from "../../../src/transports/tasks/schedules";

const logger = createLogger({ level: "silent", format: LogFormat.json });

function cronTask(action: string, cron: string, timezone?: string): CronTask {
  const recurrence = recurrenceOf(action, { task: { queue: "q", cron, ...(timezone ? { timezone } : {}) } });
  if (!recurrence || !("cron" in recurrence)) throw new Error("not a cron recurrence");
  return { action, queue: "q", recurrence };
}

describe("recurrenceOf", () => {
  test("a task without frequency or cron is queued on demand only", () => {
    expect(recurrenceOf("a:b", { task: { queue: "q" } })).toBeUndefined();
    expect(recurrenceOf("a:b", {})).toBeUndefined();
  });

  test.each([
    [{ queue: "q", frequency: 1000, cron: "* * * * *" }, 'Action "a:b" has both task.frequency and task.cron: give one'],
    [{ queue: "q", frequency: 1000, timezone: "UTC" }, 'Action "a:b" has task.timezone without task.cron'],
    [{ queue: "q", frequency: 0 }, 'Action "a:b" has task.frequency 0; it must be a number of milliseconds above 0'],
    [{ queue: "q", cron: "61 * * * *" }, 'Action "a:b" has task.cron "61 * * * *", which cannot be read: CronPattern: Invalid value for minute: 61'],
    [{ queue: "q", cron: "0 3 * * *", timezone: "Mars/Olympus" }, 'Action "a:b" has task.cron "0 3 * * *" in Mars/Olympus, which cannot be read'],
  ])("%j is refused: %s", (task, message) => {
    expect(() => recurrenceOf("a:b", { task })).toThrow(expect.objectContaining({ type: ErrorType.CONNECTION_TASK_DEFINITION, message: expect.stringContaining(message) }));
  });

  test("a cron expression is read in its time zone: 03:00 in Paris is 02:00 UTC in winter", () => {
    const task = cronTask("nightly", "0 3 * * *", "Europe/Paris");
    expect(new Date(nextRunAfter(task.recurrence, Date.parse("2026-11-28T10:00:00Z"))!).toISOString()).toBe("2026-11-29T02:00:00.000Z");
  });

  test("six fields count seconds, and the next run is strictly after the time given", () => {
    const task = cronTask("often", "*/2 * * * * *");
    const at = Date.parse("2026-11-28T10:00:00Z");
    expect(nextRunAfter(task.recurrence, at)).toBe(at + 2000);
  });

  test("herald tasks schedules describes a frequency and a cron task with their next run", () => {
    const now = Date.parse("2026-11-28T10:00:00.500Z");
    expect(describeSchedule({ action: "every", queue: "q", recurrence: { frequency: 60_000 } }, now)).toEqual({
      action: "every",
      queue: "q",
      every: 60_000,
      nextRun: "2026-11-28T10:01:00.000Z",
    });
    const nightly = cronTask("nightly", "0 3 * * *", "Europe/Paris");
    expect(describeSchedule(nightly, now)).toEqual({ action: "nightly", queue: "q", cron: "0 3 * * *", timezone: "Europe/Paris", nextRun: "2026-11-29T02:00:00.000Z" });
  });
});

describe("CronScheduler", () => {
  afterEach(() => jest.useRealTimers());

  test("fires at each tick with the tick's time and the next one's, not for a tick before it started", async () => {
    jest.useFakeTimers({ now: Date.parse("2026-11-28T10:00:00.500Z") });
    const fired: [string, string | undefined][] = [];
    const scheduler = new CronScheduler(
      [cronTask("each-second", "* * * * * *")],
      async (_task, tick, next) => void fired.push([new Date(tick).toISOString(), next === undefined ? undefined : new Date(next).toISOString()]),
      logger,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(2600);
    scheduler.stop();
    expect(fired).toEqual([
      ["2026-11-28T10:00:01.000Z", "2026-11-28T10:00:02.000Z"],
      ["2026-11-28T10:00:02.000Z", "2026-11-28T10:00:03.000Z"],
      ["2026-11-28T10:00:03.000Z", "2026-11-28T10:00:04.000Z"],
    ]);
    await jest.advanceTimersByTimeAsync(5000);
    expect(fired).toHaveLength(3);
  });

  test("a tick further away than a timer can wait (24.8 days) is reached in steps, and fires once", async () => {
    jest.useFakeTimers({ now: Date.parse("2026-02-01T00:00:00Z") });
    const fired: string[] = [];
    const scheduler = new CronScheduler([cronTask("yearly", "0 0 1 1 *", "UTC")], async (_task, tick) => void fired.push(new Date(tick).toISOString()), logger);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(Date.parse("2027-01-01T00:00:00Z") - Date.parse("2026-02-01T00:00:00Z") - 1);
    expect(fired).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    scheduler.stop();
    expect(fired).toEqual(["2027-01-01T00:00:00.000Z"]);
  });

  test("a failed enqueue is logged and the next tick still fires", async () => {
    jest.useFakeTimers({ now: Date.parse("2026-11-28T10:00:00.500Z") });
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const watched = createLogger({ level: LogLevel.error, format: LogFormat.json, destination });
    let calls = 0;
    const scheduler = new CronScheduler(
      [cronTask("flaky", "* * * * * *")],
      async () => {
        calls += 1;
        if (calls === 1) throw new Error("Redis went away");
      },
      watched,
    );
    scheduler.start();
    await jest.advanceTimersByTimeAsync(2000);
    scheduler.stop();
    expect(calls).toBe(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "could not enqueue a cron task", action: "flaky", tick: "2026-11-28T10:00:01.000Z" });
  });
});
