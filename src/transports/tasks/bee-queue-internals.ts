import type BeeQueue from "bee-queue";
import type { CommandClient } from "./redis-records";

/*
 * What Herald reads and replaces of bee-queue's internals, in one place: members of a Queue that
 * its types do not declare, and the Lua scripts of its lib/lua. When a bee-queue release moves
 * them, this file is what changes; test/transports/tasks/bee-queue-internals.test.ts fails first.
 */

/** `Queue#client`: bee-queue's own node_redis connection, on which it moves jobs. */
export function queueCommandClient<T>(queue: BeeQueue<T>): CommandClient {
  return (queue as unknown as { client: CommandClient }).client;
}

/** Runs one of bee-queue's scripts by EVALSHA: `args` is the script's name, then its keys and arguments. */
export type ScriptEvaluator = (commandable: unknown, args: unknown[]) => Promise<unknown>;

/** `Queue#_evalScriptOn`, through which every script of a queue runs. */
interface ScriptRunner {
  _evalScriptOn: ScriptEvaluator;
}

/**
 * The queue's script evaluator, bound to it, and what replaces it for that queue; undefined when
 * this bee-queue has no `_evalScriptOn`.
 */
export function queueScriptEvaluator<T>(queue: BeeQueue<T>): { evaluate: ScriptEvaluator; replace(evaluator: ScriptEvaluator): void } | undefined {
  const runner = queue as unknown as ScriptRunner;
  if (typeof runner._evalScriptOn !== "function") return undefined;
  return {
    evaluate: runner._evalScriptOn.bind(queue),
    replace: (evaluator) => {
      runner._evalScriptOn = evaluator;
    },
  };
}

/**
 * bee-queue's Lua scripts by name (`addJob`, `checkStalledJobs` …), as `lib/lua` reads them at a
 * queue's first connection; undefined when this bee-queue keeps them elsewhere.
 */
export function beeQueueScripts(): Readonly<Record<string, string>> | undefined {
  let lua: { scripts?: unknown };
  try {
    lua = require("bee-queue/lib/lua") as { scripts?: unknown };
  } catch {
    return undefined;
  }
  return typeof lua.scripts === "object" && lua.scripts !== null ? (lua.scripts as Record<string, string>) : undefined;
}
