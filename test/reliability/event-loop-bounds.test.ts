import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { HOOK_TIMEOUT } from "herald/testing";
import { HeraldProcess } from "./support/herald-process";

/**
 * Hostile bodies sent anonymously to an action without file inputs, against a real `herald start`
 * with the default limits: while they arrive, `/api/status` keeps answering promptly and the
 * process's peak memory (VmHWM) grows by a bounded amount. A body is bounded before any action
 * code runs: by its length, its key and item counts, and by what its action reads at all.
 */
const appDir = join(__dirname, "fixtures/app");
const MB = 1024 ** 2;
/** How long one `/api/status` call may take while the attacks run. */
const STATUS_BOUND_MS = 1_000;
/** How much the peak resident memory may grow over all the attacks together. */
const MEMORY_BOUND = 128 * MB;

let herald: HeraldProcess;

beforeAll(async () => {
  herald = await HeraldProcess.start(appDir, { REDIS_URL: "" });
  // The first call loads what later ones reuse; it is no measure of the attacks.
  await (await fetch(`${herald.url}/api/status`)).arrayBuffer();
}, HOOK_TIMEOUT);

afterAll(() => herald?.kill(), HOOK_TIMEOUT);

function peakRss(pid: number): number {
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

/**
 * Runs `code` (CommonJS, with `workerData` and `parentPort`) on a thread of its own and resolves
 * with the first message it posts. The attacks and the probe run off the test's main thread, so
 * that it keeps reading the server's log pipe: a server whose stdout pipe is full blocks on it.
 */
function onThread<T>(code: string, workerData: unknown): { result: Promise<T>; worker: Worker } {
  const worker = new Worker(`const { parentPort, workerData } = require("node:worker_threads");\n${code}`, { eval: true, workerData });
  const result = new Promise<T>((resolve, reject) => {
    worker.once("message", (value: T) => resolve(value));
    worker.once("error", reject);
  });
  return { result, worker };
}

/** Calls `url` one call after another until told to stop; posts how long each call took, in ms. */
const STATUS_PROBE = `
let stopping = false;
parentPort.once("message", () => (stopping = true));
(async () => {
  const took = [];
  while (!stopping) {
    const started = performance.now();
    const response = await fetch(workerData.url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error("status answered " + response.status);
    took.push(performance.now() - started);
  }
  parentPort.postMessage(took);
})();`;

/**
 * The hostile PUTs, all at once: JSON objects of as many short keys as fit in 8 MB and in just
 * under the 1 MiB default limit, and multipart uploads of 9.5 MB to an action that takes no file,
 * with a Content-Length or chunked. Posts the status of each, 0 where the server closed the
 * connection instead (also a refusal).
 */
const ATTACKS = `
const MB = 1024 ** 2;
function manyKeys(bytes) {
  const parts = [];
  for (let index = 0, size = 2; size < bytes - 32; index += 1) {
    parts.push('"k' + index + '":0');
    size += parts[index].length + 1;
  }
  return Buffer.from("{" + parts.join(",") + "}");
}
const boundary = "herald-hostile-boundary";
const upload = Buffer.concat([
  Buffer.from("--" + boundary + '\\r\\nContent-Disposition: form-data; name="name"\\r\\n\\r\\n'),
  Buffer.alloc(9.5 * MB, "a"),
  Buffer.from("\\r\\n--" + boundary + "--\\r\\n"),
]);
function chunked(body) {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.subarray(offset, (offset += 64 * 1024)));
    },
  });
}
async function send(body, type, framing) {
  try {
    const stream = framing === "chunked";
    const response = await fetch(workerData.url, { method: "PUT", headers: { "Content-Type": type }, body: stream ? chunked(body) : body, ...(stream ? { duplex: "half" } : {}) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
const huge = manyKeys(8 * MB);
const underLimit = manyKeys(MB - 1024);
const multipart = "multipart/form-data; boundary=" + boundary;
parentPort.once("message", async () => {
  const sent = [
    ...Array.from({ length: 3 }, () => send(huge, "application/json", "declared")),
    ...Array.from({ length: 2 }, () => send(huge, "application/json", "chunked")),
    ...Array.from({ length: 4 }, () => send(underLimit, "application/json", "declared")),
    ...Array.from({ length: 8 }, () => send(upload, multipart, "declared")),
    ...Array.from({ length: 8 }, () => send(upload, multipart, "chunked")),
  ];
  parentPort.postMessage(await Promise.all(sent));
});
parentPort.postMessage("ready");`;

test("hostile bodies, several at once, neither stall /api/status nor hold their size in memory", async () => {
  const attacker = onThread<string>(ATTACKS, { url: `${herald.url}/api/profile` });
  await attacker.result;
  const statusesSent = new Promise<number[]>((resolve) => attacker.worker.once("message", resolve));
  const before = peakRss(herald.pid);
  const probe = onThread<number[]>(STATUS_PROBE, { url: `${herald.url}/api/status` });
  attacker.worker.postMessage("go");
  const statuses = await statusesSent;
  probe.worker.postMessage("stop");
  const took = await probe.result;
  await Promise.all([attacker.worker.terminate(), probe.worker.terminate()]);

  expect(took.length).toBeGreaterThan(0);
  expect(Math.max(...took)).toBeLessThan(STATUS_BOUND_MS);
  // Every JSON attack is refused: 413 by its length or its key count, or the connection closed past the limit.
  for (const status of statuses.slice(0, 9)) expect([0, 413]).toContain(status);
  // Multipart is not read for an action that takes no file: a declared length over the limit is 413, a chunked one 415 at once.
  for (const status of statuses.slice(9, 17)) expect([0, 413]).toContain(status);
  for (const status of statuses.slice(17)) expect([0, 415]).toContain(status);
  expect(peakRss(herald.pid) - before).toBeLessThan(MEMORY_BOUND);
  expect(herald.running).toBe(true);
}, 120_000);
