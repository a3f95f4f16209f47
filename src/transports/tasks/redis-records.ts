import type { Redis } from "ioredis";
import type { ChildOutcome, FanOutProgress, FanOutRecord, JobError, JobInfo, JobPayload, JobProgress, JobStatus, ScheduledRun } from "./driver";
import { CompletedCounts } from "./completed-counts";
import { summarizeFanOut } from "./fan-out";

/** What Herald keeps about a job beside bee-queue's own data: its payload, attempts and outcome. */
export interface JobRecord {
  payload: JobPayload;
  status: "succeeded" | "failed" | "retrying";
  attempts: number;
  result?: unknown;
  error?: JobError;
}

/**
 * The end of an attempt that a plain SET cannot write (a failure, or the outcome of a fan-out
 * child): one command, atomic, no MULTI/EXEC.
 * KEYS: record, job id claim, and the fan-out of a child that ended for good.
 * ARGV: record JSON, TTL ms, "1" when the record expires (a success), the child's index and outcome.
 */
const SAVE_ATTEMPT = `
if ARGV[3] == "1" then
  redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2])
  redis.call("pexpire", KEYS[2], ARGV[2])
else
  redis.call("set", KEYS[1], ARGV[1])
end
if KEYS[3] and redis.call("exists", KEYS[3]) == 1 then
  redis.call("hset", KEYS[3], ARGV[4], ARGV[5])
  redis.call("pexpire", KEYS[3], ARGV[2])
end`;

/** A Redis client with callbacks (bee-queue's node_redis), which writes commands in the order they are called. */
export interface CommandClient {
  eval(script: string, ...argsThenCallback: [...(string | number)[], (error: Error | null) => void]): unknown;
  set(key: string, value: string, px: "PX", ttlMs: number, callback: (error: Error | null) => void): unknown;
  pexpire(key: string, ttlMs: number, callback: (error: Error | null) => void): unknown;
  /** Hold back, then write at once, the commands sent in between (node_redis has them once connected). */
  cork?(): void;
  uncork?(): void;
}

const RETRY_FAILED = `
if redis.call("srem", KEYS[1], ARGV[1]) == 1 then
  redis.call("lpush", KEYS[2], ARGV[1])
  return 1
end
return 0`;

/**
 * Herald's own keys next to bee-queue's, under the same prefix: job records (bee-queue drops a
 * succeeded job, and keeps no result or error body), fan-outs, de-duplication and period locks.
 */
export class RedisRecords {
  /** The succeeded jobs this process's workers ran, not yet added to the queue's count. */
  readonly completedCounts: CompletedCounts;

  /**
   * `opened` runs a command once the connection is open (the driver opens it at first use);
   * `onCountError` hears of a count that could not be added.
   */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly resultTtlMs: number,
    opened: <T>(command: () => Promise<T>) => Promise<T>,
    onCountError: (error: unknown, queue: string) => void,
  ) {
    this.completedCounts = new CompletedCounts((queue, count) => opened(() => this.redis.incrby(this.completedKey(queue), count)), onCountError);
  }

  /** bee-queue's key for a queue's list, set or hash (`jobs`, `waiting`, `active`, `delayed`, `failed`). */
  queueKey(queue: string, part: string): string {
    return `${this.beeQueuePrefix}:${queue}:${part}`;
  }

  get beeQueuePrefix(): string {
    return `${this.prefix}:q`;
  }

  /** Claims given job ids in one round trip; false for each id a job already has. */
  async claimJobIds(queue: string, claims: readonly { id: string; ttlMs: number }[]): Promise<boolean[]> {
    if (!claims.length) return [];
    const pipeline = this.redis.pipeline();
    for (const { id, ttlMs } of claims) pipeline.set(this.dedupeKey(queue, id), "1", "PX", ttlMs, "NX");
    const replies = (await pipeline.exec()) as [Error | null, unknown][];
    return replies.map(([error, reply]) => {
      if (error) throw error;
      return reply === "OK";
    });
  }

  async releaseJobIds(queue: string, ids: readonly string[]): Promise<void> {
    if (ids.length) await this.redis.del(...ids.map((id) => this.dedupeKey(queue, id)));
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:claim:${key}`, "1", "PX", ttlMs, "NX")) === "OK";
  }

  /**
   * Writes the end of an attempt on another connection, without waiting for the reply: Redis runs
   * it before any command sent on that connection afterwards. A success is kept for the retention
   * time (and keeps its id claimed as long); a final failure until the job is retried or removed.
   * EVAL, not EVALSHA: a Redis that restarted and forgot its scripts cannot answer NOSCRIPT after
   * the commands that followed already ran.
   */
  saveAttempt(client: CommandClient, queue: string, id: string, record: JobRecord, onError: (error: Error) => void): void {
    // Until the promise jobs of this tick are done, such as bee-queue marking the job done right
    // after: both go out in one socket write, where a write each costs as much as the rest of the job.
    if (client.cork && client.uncork) {
      client.cork();
      process.nextTick(() => client.uncork!());
    }
    const done = (error: Error | null) => {
      if (error) onError(error);
    };
    if (record.status === "succeeded") this.completedCounts.count(queue);
    if (record.status === "succeeded" && !record.payload.fanOut) {
      // The common case needs no script: two plain commands cost Redis far less than hashing and running one.
      client.set(this.recordKey(queue, id), JSON.stringify(record), "PX", this.resultTtlMs, done);
      if (record.payload.idClaimed) client.pexpire(this.dedupeKey(queue, id), this.resultTtlMs, done);
      return;
    }
    client.eval(SAVE_ATTEMPT, ...this.attemptArguments(queue, id, record), done);
  }

  private attemptArguments(queue: string, id: string, record: JobRecord): [number, ...(string | number)[]] {
    const keys = [this.recordKey(queue, id), this.dedupeKey(queue, id)];
    const args: (string | number)[] = [JSON.stringify(record), this.resultTtlMs, record.status === "succeeded" ? "1" : "0"];
    const fanOut = record.payload.fanOut;
    if (fanOut && record.status !== "retrying") {
      const outcome: ChildOutcome =
        record.status === "succeeded" ? { ok: true, result: record.result } : { ok: false, error: record.error! };
      keys.push(this.fanOutKey(fanOut.id));
      args.push(fanOut.index, JSON.stringify(outcome));
    }
    return [keys.length, ...keys, ...args];
  }

  /** Jobs of the queue that succeeded, as saveAttempt counts them: what this process counted included, every worker's within a second. */
  async completed(queue: string): Promise<number> {
    await this.completedCounts.flush();
    return Number((await this.redis.get(this.completedKey(queue))) ?? 0);
  }

  async recordScheduledRun(action: string, run: ScheduledRun): Promise<void> {
    await this.redis.set(this.scheduleKey(action), JSON.stringify(run));
  }

  async scheduledRuns(actions: readonly string[]): Promise<(ScheduledRun | undefined)[]> {
    if (!actions.length) return [];
    const raw = await this.redis.mget(actions.map((action) => this.scheduleKey(action)));
    return raw.map((value) => (value ? (JSON.parse(value) as ScheduledRun) : undefined));
  }

  async records(queue: string, ids: readonly string[]): Promise<(JobRecord | undefined)[]> {
    if (!ids.length) return [];
    const raw = await this.redis.mget(ids.map((id) => this.recordKey(queue, id)));
    return raw.map((value) => (value ? (JSON.parse(value) as JobRecord) : undefined));
  }

  async forget(queue: string, id: string): Promise<void> {
    await this.redis.del(this.recordKey(queue, id), this.dedupeKey(queue, id), this.progressKey(queue, id));
  }

  /** What a running job last said of its progress, kept as long as a result is. */
  async saveProgress(queue: string, id: string, progress: JobProgress): Promise<void> {
    await this.redis.set(this.progressKey(queue, id), JSON.stringify(progress), "PX", this.resultTtlMs);
  }

  progressKey(queue: string, id: string): string {
    return `${this.prefix}:progress:${queue}:${id}`;
  }

  /** Moves a failed job back to waiting, atomically, so two retries do not queue it twice. */
  async retryFailed(queue: string, id: string): Promise<boolean> {
    const moved = await this.redis.eval(RETRY_FAILED, 2, this.queueKey(queue, "failed"), this.queueKey(queue, "waiting"), id);
    return moved === 1;
  }

  async createFanOut(record: FanOutRecord): Promise<boolean> {
    const key = this.fanOutKey(record.id);
    const [[, created]] = (await this.redis
      .multi()
      .hsetnx(key, "record", JSON.stringify(record))
      .pexpire(key, this.resultTtlMs)
      .exec()) as [[Error | null, number]];
    return created === 1;
  }

  async fanOut(id: string): Promise<FanOutProgress | undefined> {
    const fields = await this.redis.hgetall(this.fanOutKey(id));
    if (!fields.record) return undefined;
    const outcomes = new Map<number, ChildOutcome>();
    for (const [field, value] of Object.entries(fields)) {
      if (field !== "record") outcomes.set(Number(field), JSON.parse(value) as ChildOutcome);
    }
    return summarizeFanOut(JSON.parse(fields.record) as FanOutRecord, outcomes);
  }

  private recordKey(queue: string, id: string): string {
    return `${this.prefix}:record:${queue}:${id}`;
  }

  private dedupeKey(queue: string, id: string): string {
    return `${this.prefix}:jobid:${queue}:${id}`;
  }

  private completedKey(queue: string): string {
    return `${this.prefix}:completed:${queue}`;
  }

  private scheduleKey(action: string): string {
    return `${this.prefix}:schedule:${action}`;
  }

  private fanOutKey(id: string): string {
    return `${this.prefix}:fanout:${id}`;
  }
}

/** A job as getJob and failed show it, from bee-queue's payload and Herald's record of its attempts. */
export function jobInfoOf(queue: string, id: string, payload: JobPayload, status: JobStatus, record?: Partial<JobRecord>): JobInfo {
  return {
    id,
    queue,
    action: payload.action,
    params: payload.params,
    status,
    attempts: record?.attempts ?? 0,
    ...(status === "succeeded" ? { result: record?.result ?? null } : {}),
    ...(record?.error ? { error: record.error } : {}),
    ...(payload.fanOut ? { fanOut: payload.fanOut } : {}),
    ...(payload.input ? { input: payload.input } : {}),
  };
}
