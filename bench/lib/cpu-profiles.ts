import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The parts of a V8 `.cpuprofile` that self time is read from. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

type CallFrame = CpuProfile["nodes"][number]["callFrame"];

/** Self time in milliseconds, by category and by function, of one or more profiles added up. */
export interface ProfileTimes {
  files: number;
  /** The calls the profiled processes served, from the counts they wrote beside their profiles; absent where none did. */
  calls?: number;
  categories: Map<string, number>;
  functions: Map<string, number>;
}

export const IDLE = "idle";
export const STARTUP = "startup (module loading, compiling)";

const PACKAGE_CATEGORIES: [RegExp, string][] = [
  [/\/node_modules\/(pino|sonic-boom)\//, "the log line (pino)"],
  [/\/node_modules\/zod\//, "zod"],
  [/\/node_modules\/ws\//, "ws"],
  [/\/node_modules\/(redis|redis-parser|redis-commands|bee-queue|ioredis|promise-callbacks|p-finally)\//, "the Redis clients and bee-queue"],
  [/\/node_modules\/(typescript|@swc|@swc-node)\//, STARTUP],
  [/\/node_modules\/(express|router|body-parser|fastify|find-my-way|avvio|light-my-request|hono|@hono|@nestjs|rxjs)\//, "the HTTP framework"],
];

/** Herald's and the bench's own files, once no package under node_modules has claimed the frame. */
const OWN_CATEGORIES: [RegExp, string][] = [
  [/\/dist\/core\/(request-log|turn-batched-destination|log-params)\.js/, "the log line (pino)"],
  [/\/dist\//, "Herald's code"],
  [/\/bench\/(servers|app|shared)\//, "the handler (bench code)"],
];

/** Which part of a server a sampled function belongs to, for comparing a Herald server with its baseline. */
export function categoryOf({ functionName, url }: CallFrame): string {
  if (functionName === "(idle)") return IDLE;
  if (functionName === "(garbage collector)") return "the garbage collector";
  // A socket's write system call happens inside these natives; a log line's inside writeString.
  if (["writev", "writeUtf8String", "writeLatin1String", "writeBuffer"].includes(functionName) && !url) return "the socket write system calls";
  if (functionName === "writeString" && !url) return "the log line (pino)";
  if (["dlopen", "readFileUtf8", "internalModuleStat", "readdir", "compileFunction"].includes(functionName) && !url) return STARTUP;
  for (const [pattern, category] of PACKAGE_CATEGORIES) if (pattern.test(url)) return category;
  if (url.includes("/node_modules/")) return "other packages";
  for (const [pattern, category] of OWN_CATEGORIES) if (pattern.test(url)) return category;
  if (url.startsWith("node:internal/modules") || url.startsWith("node:internal/bootstrap")) return STARTUP;
  if (functionName === "runMicrotasks" || url === "node:internal/process/task_queues") return "promise and tick queues";
  if (url.startsWith("node:")) return "Node's own JavaScript (streams, timers, events, net, http)";
  return "native code, the rest";
}

function functionKey({ functionName, url, lineNumber }: CallFrame): string {
  const where = url.includes("/node_modules/") ? url.replace(/^.*\/node_modules\//, "") : url.replace(/^file:\/\//, "").replace(/^.*\/(dist|bench)\//, "$1/");
  return `${functionName || "(anonymous)"} ${where || "(native)"}${url ? `:${lineNumber + 1}` : ""}`;
}

function add(map: Map<string, number>, key: string, ms: number): void {
  map.set(key, (map.get(key) ?? 0) + ms);
}

/** The `.cpuprofile` files of a folder (or one file), read and added up. */
export function readProfiles(path: string): ProfileTimes {
  const folder = statSync(path).isDirectory();
  const names = folder ? readdirSync(path) : [];
  const files = folder ? names.filter((name) => name.endsWith(".cpuprofile")).map((name) => join(path, name)) : [path];
  if (!files.length) throw new Error(`${path} holds no .cpuprofile file`);
  const counts = names.filter((name) => /^calls-\d+\.txt$/.test(name)).map((name) => Number(readFileSync(join(path, name), "utf8")));
  const calls = counts.reduce((sum, count) => sum + count, 0);
  const times: ProfileTimes = { files: files.length, categories: new Map(), functions: new Map(), ...(calls > 0 ? { calls } : {}) };
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    for (const [index, id] of profile.samples.entries()) {
      const frame = frames.get(id)!;
      const ms = (profile.timeDeltas[index] ?? 0) / 1000;
      add(times.categories, categoryOf(frame), ms);
      add(times.functions, functionKey(frame), ms);
    }
  }
  return times;
}

/** Busy time: every sample but idle and startup. */
export function busyMs(times: ProfileTimes): number {
  let busy = 0;
  for (const [category, ms] of times.categories) if (category !== IDLE && category !== STARTUP) busy += ms;
  return busy;
}
