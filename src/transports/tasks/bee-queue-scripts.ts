import type BeeQueue from "bee-queue";
import { beeQueueScripts, queueCommandClient, queueScriptEvaluator } from "./bee-queue-internals";

/**
 * bee-queue runs its Lua scripts by EVALSHA and loads them into Redis only at its first connection
 * (bee-queue#489). A Redis that restarted without persistence, or whose script cache was flushed,
 * then answers NOSCRIPT to every later call: enqueue, the stall check, the delayed-job activation.
 */

type Reply = (error: Error | null, reply?: unknown) => void;

function isNoScript(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === "NOSCRIPT" || /^NOSCRIPT/.test((error as Error | undefined)?.message ?? "");
}

/**
 * Makes a queue run a script Redis has forgotten by EVAL, which also caches it again, so the
 * EVALSHA of the next call finds it: one extra round trip after a restart, none otherwise.
 */
export function runForgottenScriptsByEval(queue: BeeQueue<unknown>): void {
  const evaluator = queueScriptEvaluator(queue);
  const scripts = beeQueueScripts();
  if (!evaluator || !scripts) {
    // A bee-queue whose internals moved: refuse to run a queue that a Redis restart would break silently.
    throw new Error("This bee-queue version has no Queue#_evalScriptOn or lib/lua scripts: Herald cannot re-send scripts Redis forgets (docs/reliability.md)");
  }
  const bySha = evaluator.evaluate;
  evaluator.replace((commandable, args) => {
    const [name, ...keysAndArguments] = args as [string, ...(string | number)[]];
    // bee-queue writes the sha and its callback into the array it is given: it gets a copy.
    return bySha(commandable, [name, ...keysAndArguments]).catch((error: unknown) => {
      if (!isNoScript(error)) throw error;
      return new Promise((resolve, reject) => {
        const reply: Reply = (evalError, result) => (evalError ? reject(evalError) : resolve(result));
        queueCommandClient(queue).eval(scripts[name]!, ...keysAndArguments, reply);
      });
    });
  });
}
