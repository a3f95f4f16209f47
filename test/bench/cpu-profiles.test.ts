import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { busyMs, categoryOf, IDLE, readProfiles, STARTUP } from "../../bench/lib/cpu-profiles";
import { profileFolderOf } from "../../bench/lib/subjects";

const ROOT = join(__dirname, "../..");

const frame = (functionName: string, url = "") => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: "0" });

/** A profile of four functions: each sample's delta is the self time of the function sampled. */
function profile(selfMs: Record<number, number>) {
  const nodes = [
    { id: 1, callFrame: frame("(idle)") },
    { id: 2, callFrame: frame("writev") },
    { id: 3, callFrame: frame("_asJson", `file://${ROOT}/node_modules/pino/lib/tools.js`) },
    { id: 4, callFrame: frame("run", `file://${ROOT}/dist/core/dispatcher.js`) },
    { id: 5, callFrame: frame("wrapSafe", "node:internal/modules/cjs/loader") },
  ];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const [id, ms] of Object.entries(selfMs)) {
    samples.push(Number(id));
    timeDeltas.push(ms * 1000);
  }
  return { nodes, samples, timeDeltas, startTime: 0, endTime: 0 };
}

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "herald-cpu-profiles-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

test("a sampled function's category: the write system calls, the log line, Herald's code, startup, idle", () => {
  expect(categoryOf(frame("writev"))).toBe("the socket write system calls");
  expect(categoryOf(frame("writeString"))).toBe("the log line (pino)");
  expect(categoryOf(frame("write", "/x/node_modules/sonic-boom/index.js"))).toBe("the log line (pino)");
  expect(categoryOf(frame("write", "/x/dist/core/request-log.js"))).toBe("the log line (pino)");
  expect(categoryOf(frame("run", "/x/dist/core/dispatcher.js"))).toBe("Herald's code");
  expect(categoryOf(frame("send", "/x/node_modules/ws/lib/sender.js"))).toBe("ws");
  expect(categoryOf(frame("fromData", "/x/node_modules/bee-queue/lib/job.js"))).toBe("the Redis clients and bee-queue");
  // A package's own dist/ is not Herald's.
  expect(categoryOf(frame("parse", "/x/node_modules/some-package/dist/index.js"))).toBe("other packages");
  expect(categoryOf(frame("(anonymous)", "/x/bench/servers/ws.ts"))).toBe("the handler (bench code)");
  expect(categoryOf(frame("wrapSafe", "node:internal/modules/cjs/loader"))).toBe(STARTUP);
  expect(categoryOf(frame("onStreamRead", "node:internal/stream_base_commons"))).toMatch(/^Node's own JavaScript/);
  expect(categoryOf(frame("(idle)"))).toBe(IDLE);
});

test("a folder's profiles add up; busy time leaves out idle and startup", () => {
  writeFileSync(join(folder, "a.cpuprofile"), JSON.stringify(profile({ 1: 100, 2: 30, 3: 10, 5: 50 })));
  writeFileSync(join(folder, "b.cpuprofile"), JSON.stringify(profile({ 2: 20, 4: 40 })));
  writeFileSync(join(folder, "notes.txt"), "not a profile");
  writeFileSync(join(folder, "calls-101.txt"), "300");
  writeFileSync(join(folder, "calls-102.txt"), "200");
  const times = readProfiles(folder);
  expect(times.files).toBe(2);
  expect(times.calls).toBe(500);
  expect(times.categories.get("the socket write system calls")).toBeCloseTo(50);
  expect(times.categories.get("the log line (pino)")).toBeCloseTo(10);
  expect(times.categories.get("Herald's code")).toBeCloseTo(40);
  expect(times.categories.get(STARTUP)).toBeCloseTo(50);
  expect(busyMs(times)).toBeCloseTo(100);
});

test("a folder whose processes wrote no count has none", () => {
  writeFileSync(join(folder, "a.cpuprofile"), JSON.stringify(profile({ 2: 30 })));
  expect(readProfiles(folder).calls).toBeUndefined();
});

test("a folder without profiles is refused by name", () => {
  expect(() => readProfiles(folder)).toThrow(`${folder} holds no .cpuprofile file`);
});

test("each subject's profiles go to a folder named after its label", () => {
  expect(profileFolderOf("raw Express 5")).toBe("raw-express-5");
  expect(profileFolderOf("Hono 4 (@hono/node-server)")).toBe("hono-4-hono-node-server");
});

test("npm run bench:profile prints µs a call by category and the functions that differ most, from the counts the subjects wrote", async () => {
  const herald = join(folder, "herald");
  const raw = join(folder, "raw");
  for (const [path, selfMs, calls] of [[herald, { 1: 10, 2: 30, 3: 10, 4: 20 }, 1000], [raw, { 1: 10, 2: 40 }, 2000]] as const) {
    mkdirSync(path);
    writeFileSync(join(path, "p.cpuprofile"), JSON.stringify(profile(selfMs)));
    writeFileSync(join(path, "calls-1.txt"), String(calls));
  }
  const { stdout } = await promisify(execFile)(process.execPath, ["-r", "@swc-node/register", join(ROOT, "bench/profile.ts"), herald, raw], { cwd: ROOT });
  expect(stdout).toMatch(/30\.00 µs .*20\.00 µs .*\+10\.00 µs {2}the socket write system calls/);
  expect(stdout).toMatch(/20\.00 µs .*\+20\.00 µs {2}Herald's code/);
  expect(stdout).toMatch(/\+20\.00 {2}run dist\/core\/dispatcher\.js:1/);
}, 60_000);
