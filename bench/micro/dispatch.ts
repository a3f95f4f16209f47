import { openSync } from "node:fs";
import { ActionRegistry, Connection, CONNECTION_TYPE, Dispatcher, LogFormat, LogLevel, rootContainer } from "../../src";
import type { ActionMiddleware } from "../../src";
import type { ActionDefinition } from "../../src/core/action";
// Not on the public surface: the server builds its logger itself.
import { createLogger } from "../../src/core/logger";
import { echoInputs, echoResponse, type EchoParams } from "../shared/echo";
import { countRequest } from "../shared/request-counter";
import { median } from "../lib/stats";

/**
 * The cost of one `Dispatcher.run` in process, without a transport: the bench app's echo action
 * and global middleware, the request log written to /dev/null, one AbortController per call as
 * the transports pass it. SWC compiles src/ as it loads, so no build is needed:
 *
 *   node -r @swc-node/register bench/micro/dispatch.ts [--calls=100000] [--repeats=7] [--concurrency=1] [--log=info|warn|silent]
 */
function option(name: string, fallback: string): string {
  const given = process.argv.find((argument) => argument.startsWith(`--${name}=`));
  return given ? given.slice(name.length + 3) : fallback;
}

const calls = Number(option("calls", "100000"));
const repeats = Number(option("repeats", "7"));
const concurrency = Number(option("concurrency", "1"));
const level = option("log", "info") as LogLevel | "silent";

const echo: ActionDefinition = {
  name: "bench:echo",
  description: "echo",
  inputs: echoInputs,
  run: async (params: unknown) => echoResponse(params as EchoParams),
} as ActionDefinition;

const counter: ActionMiddleware = {
  async runBefore(_params, connection) {
    connection.state.requestNumber = countRequest();
  },
};

const registry = new ActionRegistry(rootContainer.createChildContainer());
registry.add(echo);
const dispatcher = new Dispatcher(registry, {
  logger: createLogger({ level, format: LogFormat.json, destination: openSync("/dev/null", "w") }),
  actionTimeout: 300_000,
  production: true,
  globalMiddleware: [counter],
});
const connection = new Connection({ type: CONNECTION_TYPE.web, requestId: "bench" });

async function lane(count: number): Promise<void> {
  for (let call = 0; call < count; call++) {
    const result = await dispatcher.run("bench:echo", { message: "hello", count: "3" }, connection, { controller: new AbortController() });
    if (result.status !== 200) throw new Error(`bench:echo answered ${result.status}: ${result.error?.message}`);
  }
}

async function round(): Promise<number> {
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, () => lane(Math.ceil(calls / concurrency))));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

async function main(): Promise<void> {
  await round();
  const samples: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) samples.push(await round());
  const shown = samples.map((sample) => sample.toFixed(2)).join(" ");
  process.stderr.write(`Dispatcher.run, log ${level}, concurrency ${concurrency}: CPU µs/call median ${median(samples).toFixed(2)} (${shown})\n`);
}

void main();
