import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import WebSocket from "ws";
import { HERALD_CLI, type SoakServer } from "./servers";

/** What one kind of call did over the run. */
export interface KindTally {
  ok: number;
  /** Errors the soak asked for (invalid input), answered as they should be. */
  provoked: number;
  unexpected: number;
}

/** Everything the traffic did and saw; `problems` keeps the first unexpected answers to show. */
export class Tally {
  readonly kinds: Record<string, KindTally> = {};
  readonly problems: string[] = [];
  readonly addedNotes = new Set<number>();
  readonly jobTags: string[] = [];

  record(kind: string, outcome: keyof KindTally, detail?: string): void {
    (this.kinds[kind] ??= { ok: 0, provoked: 0, unexpected: 0 })[outcome] += 1;
    if (outcome === "unexpected" && this.problems.length < 20) this.problems.push(`${kind}: ${detail}`);
  }

  get unexpected(): number {
    return Object.values(this.kinds).reduce((sum, kind) => sum + kind.unexpected, 0);
  }
}

async function json(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * One simulated user until `until`: reads and adds notes, provokes validation errors, counts
 * visits in a session it carries across both processes, and queues jobs, at a steady pace.
 */
export async function virtualUser(servers: readonly SoakServer[], tally: Tally, until: number, pauseMs: number): Promise<void> {
  let cookie: string | undefined;
  let visits = 0;
  for (let turn = 0; Date.now() < until; turn += 1) {
    const server = servers[turn % servers.length]!;
    const roll = Math.random();
    try {
      if (roll < 0.4) {
        const response = await fetch(`${server.url}/api/notes?limit=10`);
        const body = await json(response);
        tally.record("http notes:list", response.status === 200 && Array.isArray(body.notes) ? "ok" : "unexpected", `${response.status}`);
      } else if (roll < 0.6) {
        const response = await fetch(`${server.url}/api/notes`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ body: `note ${randomUUID()}` }) });
        const body = await json(response);
        if (response.status === 200) tally.addedNotes.add(body.note.id as number);
        tally.record("http notes:add", response.status === 200 ? "ok" : "unexpected", `${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      } else if (roll < 0.7) {
        const response = await fetch(`${server.url}/api/notes`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ body: "" }) });
        await response.arrayBuffer();
        tally.record("http notes:add (invalid)", response.status === 422 ? "provoked" : "unexpected", `${response.status}`);
      } else if (roll < 0.9) {
        const response = await fetch(`${server.url}/api/visit`, { method: "POST", headers: cookie ? { cookie } : {} });
        const body = await json(response);
        cookie = response.headers.get("set-cookie")?.split(";")[0] ?? cookie;
        const expected = visits + 1;
        visits = body.visits ?? visits;
        tally.record("http session:visit", response.status === 200 && body.visits === expected ? "ok" : "unexpected", `${response.status} visits ${body.visits}, expected ${expected}`);
      } else {
        const tag = randomUUID();
        const response = await fetch(`${server.url}/api/jobs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tag }) });
        await response.arrayBuffer();
        if (response.status === 200) tally.jobTags.push(tag);
        tally.record("http jobs:enqueue", response.status === 200 ? "ok" : "unexpected", `${response.status}`);
      }
    } catch (error) {
      tally.record("http (no answer)", "unexpected", (error as Error).message);
    }
    await sleep(pauseMs);
  }
}

/** A socket subscribed to `notes` that also lists notes over WebSocket now and then. */
export class NotesSocket {
  readonly heard = new Set<number>();
  private readonly ws: WebSocket;
  private readonly replies = new Map<string, (message: any) => void>();

  private constructor(readonly label: string, url: string) {
    this.ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws`);
    this.ws.on("message", (data) => {
      const message = JSON.parse(data.toString());
      if (message.messageType === "message" && message.channel === "notes") this.heard.add(message.message.id);
      const reply = message.messageId !== undefined ? this.replies.get(message.messageId) : undefined;
      if (reply) {
        this.replies.delete(message.messageId);
        reply(message);
      }
    });
  }

  static async open(label: string, url: string): Promise<NotesSocket> {
    const socket = new NotesSocket(label, url);
    await new Promise((resolve, reject) => {
      socket.ws.once("open", resolve);
      socket.ws.once("error", reject);
    });
    const subscribed = await socket.request({ messageType: "subscribe", channel: "notes" });
    if (!subscribed.subscribed) throw new Error(`${label} could not subscribe: ${JSON.stringify(subscribed)}`);
    return socket;
  }

  request(message: Record<string, unknown>): Promise<any> {
    const messageId = randomUUID();
    return new Promise((resolve) => {
      this.replies.set(messageId, resolve);
      this.ws.send(JSON.stringify({ ...message, messageId }));
    });
  }

  async callUntil(tally: Tally, until: number, pauseMs: number): Promise<void> {
    while (Date.now() < until) {
      const reply = await this.request({ messageType: "action", action: "notes:list", params: { limit: 5 } });
      tally.record("ws notes:list", Array.isArray(reply.response?.notes) ? "ok" : "unexpected", JSON.stringify(reply).slice(0, 200));
      await sleep(pauseMs);
    }
  }

  close(): void {
    this.ws.close();
  }
}

/** `herald notes:list -q` in a process of its own, every `everyMs`, as an operator's script would. */
export async function cliCalls(appDir: string, env: NodeJS.ProcessEnv, tally: Tally, until: number, everyMs: number): Promise<void> {
  while (Date.now() < until) {
    const outcome = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [HERALD_CLI, "notes:list", "--limit", "3", "-q"], { cwd: appDir, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
      );
    });
    let total: unknown;
    try {
      total = JSON.parse(outcome.stdout).response.total;
    } catch {
      total = undefined;
    }
    tally.record("cli notes:list", outcome.code === 0 && typeof total === "number" ? "ok" : "unexpected", `exit ${outcome.code}: ${(outcome.stdout + outcome.stderr).slice(0, 300)}`);
    await sleep(everyMs);
  }
}
