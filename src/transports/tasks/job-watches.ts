import { Lifecycle, scoped } from "tsyringe";
import { ChannelBroker } from "../../channels/channel-broker";
import { ErrorType, TypedError } from "../../core/errors";
import type { FanOutProgress, JobInfo } from "./driver";
import { fanOutChannel, isFinalEvent, jobChannel, type FanOutCounts, type JobWatchEvent, type WatchMessage } from "./job-events";
import { TaskRuntime } from "./runtime";
import { TaskService } from "./task-service";
import { WatchHandles, type WatchTarget } from "./watch-handles";
import { Inbox, WatchStream } from "./watch-stream";

/** What a watch's inbox holds: a message of the channel, or the timer's call to read the job again. */
type WatchItem = WatchMessage | { type: "recheck" };

function unknownHandle(): TypedError {
  // One answer for a forged handle, one of another app and one whose job is gone: none names a job this caller can watch.
  return new TypedError({ message: "No job to watch: the handle is unknown, or its job has ended and been forgotten", type: ErrorType.CONNECTION_NOT_FOUND, key: "handle" });
}

function outcomeOf(job: JobInfo): JobWatchEvent | undefined {
  if (job.status === "succeeded") return { type: "completed", result: job.result ?? null };
  if (job.status === "failed") return { type: "failed", error: job.error ?? { message: "The job failed", type: ErrorType.CONNECTION_ACTION_RUN, timestamp: new Date().toISOString() } };
  return undefined;
}

function countsOf(progress: FanOutProgress): FanOutCounts {
  const { total, succeeded, failed, pending, complete } = progress;
  return { total, succeeded, failed, pending, complete };
}

/**
 * Opens the watch a handle names, for `tasks:watch`: it subscribes to the job's (or fan-out's)
 * channel first and reads the job once then, so that a watcher who comes after the end still gets
 * the outcome, and one who comes before misses nothing. Pub/sub delivers at most once (a message
 * published while Redis reconnects is lost): while it waits, the watch also reads the job again
 * every TASKS_STALL_INTERVAL, and ends with the outcome it finds.
 */
@scoped(Lifecycle.ContainerScoped)
export class JobWatches {
  constructor(
    private readonly tasks: TaskService,
    private readonly handles: WatchHandles,
    private readonly broker: ChannelBroker,
    private readonly runtime: TaskRuntime,
  ) {}

  /** Refused with 404 for a handle this app did not mint or whose job is gone, 403 for one minted for another caller. */
  async open(handle: string, caller: string): Promise<AsyncIterableIterator<JobWatchEvent>> {
    const target = this.handles.read(handle);
    if (!target) throw unknownHandle();
    if (!this.handles.allows(target, caller)) {
      throw new TypedError({ message: "This job is watched by the caller that queued it only", type: ErrorType.CONNECTION_FORBIDDEN, key: "handle" });
    }
    return target.kind === "job" ? this.watchJob(target) : this.watchFanOut(target);
  }

  private async watchJob(target: Extract<WatchTarget, { kind: "job" }>): Promise<WatchStream<WatchItem, JobWatchEvent>> {
    const { queue, jobId } = target;
    const read = async (): Promise<JobInfo> => {
      const job = await this.tasks.getJob(queue, jobId);
      if (!job) throw unknownHandle();
      return job;
    };
    return this.watch(jobChannel(this.runtime.settings.prefix, queue, jobId), async () => {
      const job = await read();
      const outcome = outcomeOf(job);
      const { status, attempts, progress } = job;
      const initial: JobWatchEvent[] = outcome
        ? [outcome]
        : [{ type: "status", status: status as Exclude<JobInfo["status"], "succeeded" | "failed">, attempts, ...(progress ? { progress } : {}) }];
      const interpret = async (item: WatchItem): Promise<JobWatchEvent[]> => {
        if (item.type === "child") return [];
        if (item.type !== "recheck") return [item];
        const found = outcomeOf(await read());
        return found ? [found] : [];
      };
      return { initial, interpret };
    });
  }

  private async watchFanOut(target: Extract<WatchTarget, { kind: "fanOut" }>): Promise<WatchStream<WatchItem, JobWatchEvent>> {
    const read = async (): Promise<FanOutProgress> => {
      const progress = await this.tasks.fanOutProgress(target.fanOutId);
      if (!progress) throw unknownHandle();
      return progress;
    };
    let last = "";
    const eventsOf = (progress: FanOutProgress): JobWatchEvent[] => {
      const counts = countsOf(progress);
      const text = JSON.stringify(counts);
      // A child's message and the timer's read may find the same counts: each change is told once.
      if (text === last) return [];
      last = text;
      return [{ type: "fanOut", ...counts }, ...(progress.complete ? [{ type: "completed" as const, result: progress }] : [])];
    };
    return this.watch(fanOutChannel(this.runtime.settings.prefix, target.fanOutId), async () => ({
      initial: eventsOf(await read()),
      interpret: async (item: WatchItem) => (item.type === "child" || item.type === "recheck" ? eventsOf(await read()) : []),
    }));
  }

  /** Subscribes, then reads; on a failed read lets go of the subscription before throwing. */
  private async watch(
    channel: string,
    begin: () => Promise<{ initial: JobWatchEvent[]; interpret: (item: WatchItem) => Promise<JobWatchEvent[]> }>,
  ): Promise<WatchStream<WatchItem, JobWatchEvent>> {
    // Unread progress gives way to the next report, and one unread read of the counts (a child's end, the timer's) does for several.
    const inbox = new Inbox<WatchItem>((next, last) => ["progress", "child", "recheck"].includes(next.type) && last.type === next.type);
    const unsubscribe = await this.broker.subscribe(channel, (text) => {
      try {
        inbox.push(JSON.parse(text) as WatchMessage);
      } catch {
        // Not a message of a watched job's.
      }
    });
    let timer: NodeJS.Timeout | undefined;
    const release = async () => {
      clearInterval(timer);
      await unsubscribe();
    };
    try {
      const { initial, interpret } = await begin();
      if (!initial.some(isFinalEvent)) {
        timer = setInterval(() => inbox.push({ type: "recheck" }), this.runtime.settings.stallIntervalMs);
        timer.unref();
      }
      return new WatchStream(initial, inbox, { interpret, isFinal: isFinalEvent, release });
    } catch (thrown) {
      await release();
      throw thrown;
    }
  }
}
