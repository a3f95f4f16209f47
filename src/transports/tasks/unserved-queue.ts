import { buildsAnyOf } from "../../core/dependency-reach";
import type { ActionRefusal } from "../../core/dispatcher";
import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import type { TaskRuntime } from "./runtime";

/**
 * Without Redis, the task queue lives in the memory of the process that runs the workers (the
 * app's server), and a process without workers (cli, mcp) has a queue of its own that no worker
 * serves and that is not the app's. What would use that queue is refused, with this error.
 */
export function unservedQueueError(runtime: TaskRuntime, refused: string): TypedError {
  return new TypedError({
    message:
      `${refused}: without REDIS_URL, the queue lives in the memory of the app's server process (herald start, herald dev), ` +
      "which runs its workers, and no other process reaches it. Set REDIS_URL, or run the command while the app's server " +
      "runs (in development on the embedded database, the CLI sends it there)",
    type: ErrorType.CONNECTION_SERVICE_UNAVAILABLE,
  });
}

/**
 * Refuses, before it runs, a call of an action that takes the task queue (one of `queueTokens`,
 * directly or through the services it takes, or its own middleware does) in a process whose queue
 * no worker serves: what it did before it queued (a row written) would otherwise stay done, and
 * its task never run. Whether it takes the queue is asked once per action.
 */
export function refuseQueueUsers(runtime: TaskRuntime, queueTokens: ReadonlySet<unknown>): ActionRefusal {
  const takesQueue = new WeakMap<RegisteredAction, boolean>();
  const container = runtime.server.container;
  return (registered) => {
    let takes = takesQueue.get(registered);
    if (takes === undefined) {
      takes = [registered.action, ...registered.middleware].some((part) => buildsAnyOf(container, part.constructor, queueTokens));
      takesQueue.set(registered, takes);
    }
    if (!takes || !runtime.queueIsUnserved) return undefined;
    const refused = `Action "${registered.name}" uses the task queue (it takes TaskService), so this ${runtime.server.runMode} process refuses it before it runs`;
    return unservedQueueError(runtime, refused);
  };
}
