import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { waitFor } from "herald/testing";
import { HeraldProcess } from "../../reliability/support/herald-process";
import { usePostgresSchema } from "../../reliability/support/postgres-schema";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../../reliability/support/shared-redis";
import { Haproxy } from "./haproxy";

const SAMPLE_APP = join(__dirname, "../../../sample-app");
/** How often HAProxy asks each process's /readyz, and how long a stopping process goes on serving after it turned 503. */
const CHECK_INTERVAL_MS = 200;
const SHUTDOWN_DELAY_MS = 1000;

/** A port nothing listens on now, for a process whose port must be known before it starts: HAProxy's, which PUBLIC_URL names. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The secrets every process of one app shares, as an operator sets them (docs/deployment.md). */
export function sharedSecrets(): Record<string, string> {
  const secret = () => randomBytes(32).toString("base64url");
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwks = { keys: [{ ...privateKey.export({ format: "jwk" }), alg: "ES256", use: "sig", kid: "topology" }] };
  return { SESSION_SECRET: secret(), MCP_REQUEST_STATE_KEY: secret(), TASKS_WATCH_KEY: secret(), OAUTH_COOKIE_SECRETS: secret(), OAUTH_JWKS: JSON.stringify(jwks) };
}

/**
 * Resolves once `/readyz` through the balancer answers 200. Fails as soon as HAProxy or one of the
 * processes behind it exits, with what HAProxy said, rather than at the deadline.
 */
export async function untilBalancerReady(url: string, haproxy: Haproxy, processes: HeraldProcess[]): Promise<void> {
  let ended: string | undefined;
  void haproxy.exited.then(() => (ended ??= "HAProxy exited before /readyz answered 200 through it"));
  for (const herald of processes) {
    // Its last log lines say why: a production process logs its failure as JSON.
    const said = () => [...herald.otherOutput, ...herald.logs.slice(-3).map((line) => JSON.stringify(line))].join("\n");
    void herald.exited.then((code) => (ended ??= `a herald process exited (${code}):\n${said()}`));
  }
  const ready = async () => ended !== undefined || (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
  const failure = await waitFor(ready, { timeout: 30_000 }).then(
    () => ended,
    (error: Error) => error.message,
  );
  if (failure !== undefined) throw new Error(`${failure}\nHAProxy said:\n${haproxy.output}`);
}

export interface TopologyOptions {
  /** The app the processes serve: the sample app unless said. */
  appDir?: string;
  /** Settings of every process beside the topology's own. */
  env?: NodeJS.ProcessEnv;
}

/**
 * An app as docs/deployment.md runs it (the sample app unless `options.appDir` says): three web
 * processes and two `--workers-only` processes, in production, sharing one PostgreSQL schema and
 * one Redis, behind HAProxy on loopback with deploy/haproxy.cfg (round robin, no sticky
 * sessions). Started before the file's tests, stopped after them.
 */
export function useTopology(label: string, options: TopologyOptions = {}): Topology {
  const database = usePostgresSchema(`topology_${label}`);
  const topology = new Topology(uniqueAppName(`topology-${label}`), () => database.urlVia(5432), options);
  beforeAll(() => topology.start(), 120_000);
  afterAll(() => topology.stop(), 60_000);
  return topology;
}

export class Topology {
  /** The balancer's URL: where every client of the app connects. */
  url = "";
  readonly web: HeraldProcess[] = [];
  readonly workers: HeraldProcess[] = [];
  private haproxy: Haproxy | undefined;
  private env: NodeJS.ProcessEnv = {};
  private readonly stopped: HeraldProcess[] = [];

  private readonly appDir: string;

  constructor(
    readonly name: string,
    private readonly databaseUrl: () => string,
    private readonly options: TopologyOptions = {},
  ) {
    this.appDir = options.appDir ?? SAMPLE_APP;
  }

  /** Every process of the topology, web and workers, running or stopped: where to look for what happened. */
  get processes(): HeraldProcess[] {
    return [...this.web, ...this.workers, ...this.stopped];
  }

  async start(): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.env = {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      NAME: this.name,
      DATABASE_URL: this.databaseUrl(),
      REDIS_URL: SHARED_REDIS_URL,
      PUBLIC_URL: this.url,
      HTTP_TRUST_PROXY: "127.0.0.1",
      SHUTDOWN_DELAY: String(SHUTDOWN_DELAY_MS),
      LOG_LEVEL: "info",
      ...sharedSecrets(),
      ...this.options.env,
    };
    // The first web process migrates the schema alone; the others find it migrated.
    this.web.push(await HeraldProcess.start(this.appDir, this.env));
    const others = await Promise.all([
      HeraldProcess.start(this.appDir, this.env),
      HeraldProcess.start(this.appDir, this.env),
      HeraldProcess.start(this.appDir, this.env, ["--workers-only"]),
      HeraldProcess.start(this.appDir, this.env, ["--workers-only"]),
    ]);
    this.web.push(others[0]!, others[1]!);
    this.workers.push(others[2]!, others[3]!);
    this.haproxy = Haproxy.start({
      HERALD_LISTEN: `127.0.0.1:${port}`,
      HERALD_CHECK_INTERVAL_MS: String(CHECK_INTERVAL_MS),
      ...Object.fromEntries(this.web.map((web, i) => [`HERALD_WEB${i + 1}`, new URL(web.url).host])),
    });
    await untilBalancerReady(this.url, this.haproxy, this.processes);
  }

  /** The web processes that served a call of `action` (from their request log lines). */
  servedBy(action: string): HeraldProcess[] {
    return this.web.filter((web) => web.lines("action", { action }).length > 0);
  }

  /**
   * Replaces web process `index` as a rolling restart does: SIGTERM, its exit once its calls in
   * flight finished, and a new process on the same port, ready behind the balancer.
   */
  async restartWeb(index: number): Promise<void> {
    const old = this.web[index]!;
    const { port } = new URL(old.url);
    old.signal("SIGTERM");
    expect(await old.exited).toBe(0);
    this.stopped.push(old);
    const replacement = await HeraldProcess.start(this.appDir, { ...this.env, PORT: port });
    this.web[index] = replacement;
  }

  async stop(): Promise<void> {
    this.haproxy?.stop();
    this.haproxy = undefined;
    for (const herald of this.processes) await herald.kill();
    await deleteAppKeys(this.name);
  }
}
