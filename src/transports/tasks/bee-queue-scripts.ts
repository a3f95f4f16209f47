import type BeeQueue from "bee-queue";

/**
 * bee-queue runs its Lua scripts by EVALSHA and loads them into Redis only at its first connection
 * (bee-queue#489). A Redis that restarted without persistence, or whose script cache was flushed,
 * then answers NOSCRIPT to every later call: enqueue, the stall check, the delayed-job activation.
 */
const beeQueueLua = require("bee-queue/lib/lua") as { scripts: Record<string, string> };

type Reply = (error: Error | null, reply?: unknown) => void;

/** The members of a bee-queue Queue through which every one of its scripts runs. */
interface ScriptRunner {
  _evalScriptOn(commandable: unknown, args: unknown[]): Promise<unknown>;
  client: { eval(...argsThenCallback: unknown[]): unknown };
}

function isNoScript(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === "NOSCRIPT" || /^NOSCRIPT/.test((error as Error | undefined)?.message ?? "");
}

/**
 * Makes a queue run a script Redis has forgotten by EVAL, which also caches it again, so the
 * EVALSHA of the next call finds it: one extra round trip after a restart, none otherwise.
 */
export function runForgottenScriptsByEval(queue: BeeQueue<unknown>): void {
  const runner = queue as unknown as ScriptRunner;
  if (typeof runner._evalScriptOn !== "function" || typeof beeQueueLua.scripts !== "object") {
    // A bee-queue whose internals moved: refuse to run a queue that a Redis restart would break silently.
    throw new Error("This bee-queue version has no Queue#_evalScriptOn or lib/lua scripts: Herald cannot re-send scripts Redis forgets (docs/reliability.md)");
  }
  const bySha = runner._evalScriptOn.bind(queue);
  runner._evalScriptOn = (commandable, args) => {
    const [name, ...keysAndArguments] = args as [string, ...unknown[]];
    // bee-queue writes the sha and its callback into the array it is given: it gets a copy.
    return bySha(commandable, [name, ...keysAndArguments]).catch((error: unknown) => {
      if (!isNoScript(error)) throw error;
      return new Promise((resolve, reject) => {
        const reply: Reply = (evalError, result) => (evalError ? reject(evalError) : resolve(result));
        runner.client.eval(beeQueueLua.scripts[name], ...keysAndArguments, reply);
      });
    });
  };
}
