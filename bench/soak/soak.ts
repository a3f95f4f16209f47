/**
 * `npm run soak`: two `herald start` processes of the soak app share one Redis and one PostgreSQL
 * (loopback only) while HTTP, WebSocket, CLI and task traffic runs for a bounded number of
 * minutes; then it checks that no error came but those it provoked, that every job ran, that
 * every socket heard every note, that both processes stop cleanly, and that RSS stayed flat after
 * warm-up. Exit code 0 when every check holds. See docs/reliability.md.
 *
 *   npm run soak -- --minutes=5 --users=6
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../lib/processes";
import { SoakServer } from "./lib/servers";
import { deleteKeys, loopbackServices, talliedJobs } from "./lib/services";
import { cliCalls, NotesSocket, Tally, virtualUser } from "./lib/traffic";

const APP_DIR = join(__dirname, "app");
const MAX_MINUTES = 60;
/** The shortest run whose memory can be judged: after the warm-up, at least ten RSS samples five seconds apart. */
const MIN_MINUTES = 1.5;

function option(name: string, fallback: number): number {
  const raw = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Flat when, after warm-up, the last samples are within 15 % (or 25 MB) of the first ones. */
function rssVerdict(samples: number[]): { flat: boolean; summary: string } {
  // A run too short to judge is no evidence that memory stays flat.
  if (samples.length < 6) return { flat: false, summary: `too few samples after warm-up (${samples.length}) to judge` };
  const start = median(samples.slice(0, 3));
  const end = median(samples.slice(-3));
  const allowed = Math.max(start * 0.15, 25);
  return { flat: end - start <= allowed, summary: `${start.toFixed(0)} MB → ${end.toFixed(0)} MB (allowed growth ${allowed.toFixed(0)} MB)` };
}

async function main(): Promise<number> {
  const minutes = Math.min(option("minutes", 3), MAX_MINUTES);
  if (!(minutes >= MIN_MINUTES)) {
    console.error(`soak: --minutes must be at least ${MIN_MINUTES}, so that memory after the warm-up can be judged`);
    return 2;
  }
  const users = Math.round(option("users", 4));
  const pauseMs = option("pause", 20);
  const { redisUrl, database } = await loopbackServices();
  const name = `herald-soak-${randomBytes(4).toString("hex")}`;
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    NAME: name,
    REDIS_URL: redisUrl,
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    TASKS_STALL_INTERVAL: "2000",
  };
  const servers = [
    new SoakServer("process A", APP_DIR, await freePort(), env),
    new SoakServer("process B", APP_DIR, await freePort(), env),
  ];
  const sockets: NotesSocket[] = [];
  const tally = new Tally();
  const rss: Record<string, number[]> = { "process A": [], "process B": [] };
  const failures: string[] = [];
  try {
    await Promise.all(servers.map((server) => server.ready()));
    for (const server of servers) for (const index of [1, 2]) sockets.push(await NotesSocket.open(`${server.label} socket ${index}`, server.url));

    const started = Date.now();
    const until = started + minutes * 60_000;
    const warmUpEnds = started + Math.max(30_000, minutes * 60_000 * 0.4);
    console.log(`soak: ${minutes} min, ${users} users per process pair, apps ${servers.map((server) => server.url).join(" and ")}`);
    const sampler = setInterval(() => {
      if (Date.now() < warmUpEnds) return;
      for (const server of servers) rss[server.label]!.push(server.rssMb());
    }, 5000);
    const progress = setInterval(() => {
      const done = Object.values(tally.kinds).reduce((sum, kind) => sum + kind.ok + kind.provoked, 0);
      console.log(`soak: ${Math.round((Date.now() - started) / 1000)} s, ${done} calls, ${tally.unexpected} unexpected`);
    }, 30_000);
    await Promise.all([
      ...Array.from({ length: users }, () => virtualUser(servers, tally, until, pauseMs)),
      ...sockets.map((socket) => socket.callUntil(tally, until, 100)),
      cliCalls(APP_DIR, env, tally, until, 10_000),
    ]);
    clearInterval(sampler);
    clearInterval(progress);

    const jobsDeadline = Date.now() + 60_000;
    let tallied = 0;
    while ((tallied = await talliedJobs(database.url, tally.jobTags)) < tally.jobTags.length && Date.now() < jobsDeadline) await sleep(500);
    if (tallied < tally.jobTags.length) failures.push(`jobs: ${tallied} of ${tally.jobTags.length} ran`);

    const notesDeadline = Date.now() + 10_000;
    const deaf = () => sockets.filter((socket) => [...tally.addedNotes].some((id) => !socket.heard.has(id)));
    while (deaf().length && Date.now() < notesDeadline) await sleep(200);
    for (const socket of deaf()) failures.push(`${socket.label} heard ${socket.heard.size} of ${tally.addedNotes.size} notes`);

    for (const socket of sockets) socket.close();
    const codes = await Promise.all(servers.map((server) => server.stop()));
    codes.forEach((code, index) => code !== 0 && failures.push(`${servers[index]!.label} exited ${code} on SIGTERM`));

    console.log("\ncalls:");
    for (const [kind, counts] of Object.entries(tally.kinds)) console.log(`  ${kind.padEnd(28)} ok ${counts.ok}  provoked ${counts.provoked}  unexpected ${counts.unexpected}`);
    console.log(`jobs: ${tallied} of ${tally.jobTags.length} ran; notes: ${tally.addedNotes.size} added, heard by ${sockets.length} sockets`);
    if (tally.unexpected) failures.push(`${tally.unexpected} unexpected answers, first: ${tally.problems.slice(0, 5).join(" | ")}`);
    for (const server of servers) {
      const errors = server.complaints.filter((line) => !line.startsWith("{") || (JSON.parse(line) as { level: number }).level >= 50);
      if (errors.length) failures.push(`${server.label} logged ${errors.length} error(s), first: ${errors[0]!.slice(0, 300)}`);
      const verdict = rssVerdict(rss[server.label]!);
      console.log(`rss ${server.label}: ${verdict.summary}`);
      if (!verdict.flat) failures.push(`${server.label} RSS grew after warm-up: ${verdict.summary}`);
    }
  } finally {
    for (const socket of sockets) socket.close();
    for (const server of servers) server.kill();
    await database.drop().catch((error: Error) => console.error(`could not drop schema ${database.schema}: ${error.message}`));
    await deleteKeys(redisUrl, name).catch((error: Error) => console.error(`could not delete Redis keys ${name}:*: ${error.message}`));
  }
  console.log(failures.length ? `\nsoak FAILED:\n  ${failures.join("\n  ")}` : "\nsoak passed");
  return failures.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`soak could not run: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
