import { randomBytes } from "node:crypto";
import { herald, type CliRun } from "../../support/cli";
import { HeraldProcess } from "../../reliability/support/herald-process";
import { POSTGRES_URL, usePostgresSchema } from "../../reliability/support/postgres-schema";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../../reliability/support/shared-redis";
import { type ComposeService, readCompose, REPOSITORY } from "./compose";
import { Haproxy } from "./haproxy";
import { freePort, sharedSecrets, untilBalancerReady } from "./topology";

/** What every service's host name stands for here: each service is a process on this machine. */
const LOOPBACK = "127.0.0.1";
/** The command of a Herald service before its own arguments, run from the image's /app, the repository. */
const HERALD_COMMAND = ["node", "dist/cli-entry.js"];
/** Where the official HAProxy image reads its configuration. */
const HAPROXY_IMAGE_CONFIG = "/usr/local/etc/haproxy/haproxy.cfg";
/** The port each backing service's official image listens on. */
const BACKING_PORTS = { postgres: 5432, redis: 6379 } as const;

export type Role = "herald" | "haproxy" | keyof typeof BACKING_PORTS;

function roleOf(service: ComposeService): Role {
  if (service.buildContext === REPOSITORY) return "herald";
  const image = service.image?.split(":")[0];
  if (image === "haproxy" || image === "postgres" || image === "redis") return image;
  // A service this file cannot run without containers must not pass unrun.
  throw new Error(`compose.yaml's service ${service.name} (${service.image}) is not one the topology test knows how to run`);
}

/**
 * The topology compose.yaml describes, run without containers, started before the file's tests and
 * stopped after them: each Herald service a `herald start` with the arguments and environment
 * compose gives its container, HAProxy on the file the haproxy service mounts with the environment
 * compose gives it, PostgreSQL and Redis this machine's own (a schema of this file alone, an app
 * NAME of its own). Each service's host name and container port stand for 127.0.0.1 and a free port.
 */
export function useComposeTopology(label: string): ComposeTopology {
  const database = usePostgresSchema(`compose_${label}`);
  const topology = new ComposeTopology(uniqueAppName(`compose-${label}`), () => database.urlVia(Number(new URL(POSTGRES_URL).port || 5432)));
  beforeAll(() => topology.start(), 120_000);
  afterAll(() => topology.stop(), 60_000);
  return topology;
}

export class ComposeTopology {
  /** The balancer's URL: the port the file publishes. */
  url = "";
  /** What this run gave compose to interpolate, as an operator's .env does: the secrets, and PUBLIC_URL. */
  variables: Record<string, string> = {};
  services: Record<string, ComposeService> = {};
  /** The `herald start` process of each Herald service, by service name. */
  readonly herald: Record<string, HeraldProcess> = {};
  /** The loopback port standing for each service's container port, by `service:port`. */
  private readonly ports = new Map<string, number>();
  /** The environment each service's process got, by service name. */
  private readonly environments = new Map<string, NodeJS.ProcessEnv>();
  private haproxy: Haproxy | undefined;

  constructor(
    readonly name: string,
    private readonly databaseUrl: () => string,
  ) {}

  async start(): Promise<void> {
    const balancerPort = await freePort();
    this.url = `http://${LOOPBACK}:${balancerPort}`;
    this.variables = { ...sharedSecrets(), POSTGRES_PASSWORD: randomBytes(32).toString("hex"), PUBLIC_URL: this.url };
    this.services = readCompose(this.variables);
    await this.assignPorts(balancerPort);
    // In the order of depends_on, as compose starts them: each service once those it waits for have started.
    const started = new Map<string, Promise<void>>();
    const start = (name: string): Promise<void> => {
      if (!started.has(name)) {
        const service = this.services[name]!;
        started.set(name, Promise.all(Object.keys(service.dependsOn).map(start)).then(() => this.startService(service)));
      }
      return started.get(name)!;
    };
    await Promise.all(Object.keys(this.services).map(start));
    await untilBalancerReady(this.url, this.haproxy!, Object.values(this.herald));
  }

  /** The services of a role, by name, in the file's order. */
  servicesOf(role: Role): string[] {
    return Object.values(this.services)
      .filter((service) => roleOf(service) === role)
      .map((service) => service.name);
  }

  /** The services whose address the balancer's environment names: those it sends requests to. */
  get balanced(): string[] {
    const balancer = this.services[this.servicesOf("haproxy")[0]!]!;
    return Object.values(balancer.environment)
      .map((value) => /^([^:/]+):\d+$/.exec(value)?.[1])
      .filter((name): name is string => name !== undefined && name in this.services);
  }

  /** The loopback port standing for a service's container port. */
  port(service: string, containerPort: string | number): number {
    const port = this.ports.get(`${service}:${containerPort}`);
    if (port === undefined) throw new Error(`compose.yaml names ${service}:${containerPort}, where nothing of the file listens`);
    return port;
  }

  /** `herald <args>` with the environment of a Herald service: what `docker compose exec <service> node dist/cli-entry.js <args>` runs. */
  exec(service: string, args: string[]): Promise<CliRun> {
    return herald(args, { cwd: REPOSITORY, env: this.environments.get(service) });
  }

  async stop(): Promise<void> {
    this.haproxy?.stop();
    this.haproxy = undefined;
    for (const started of Object.values(this.herald)) await started.kill();
    await deleteAppKeys(this.name);
  }

  private async assignPorts(balancerPort: number): Promise<void> {
    for (const service of Object.values(this.services)) {
      const role = roleOf(service);
      if (role === "herald") this.ports.set(`${service.name}:${service.environment.PORT}`, await freePort());
      else if (role === "haproxy") {
        // The one port the file publishes is the balancer's, which PUBLIC_URL names.
        expect(service.ports.length).toBe(1);
        this.ports.set(`${service.name}:${service.ports[0]!.target}`, balancerPort);
      } else this.ports.set(`${service.name}:${BACKING_PORTS[role]}`, Number(new URL(this.backingUrl(role)).port));
      if (role !== "haproxy") expect(service.ports).toEqual([]);
    }
  }

  /** This machine's server standing for a backing service: its own user, password and database included. */
  private backingUrl(role: keyof typeof BACKING_PORTS): string {
    return role === "postgres" ? this.databaseUrl() : SHARED_REDIS_URL;
  }

  /** A value of `service`'s environment with each address of a service of the file made this machine's. */
  private mapped(value: string, service: ComposeService): string {
    const bare = /^:(\d+)$/.exec(value);
    if (bare) return `${LOOPBACK}:${this.port(service.name, bare[1]!)}`;
    const address = /^([^:/]+):(\d+)$/.exec(value);
    if (address && address[1]! in this.services) return `${LOOPBACK}:${this.port(address[1]!, address[2]!)}`;
    if (!value.includes("://") || !URL.canParse(value)) return value;
    const url = new URL(value);
    const named = this.services[url.hostname];
    if (!named) return value;
    const role = roleOf(named);
    if (role === "postgres" || role === "redis") return this.backingUrl(role);
    url.host = `${LOOPBACK}:${this.port(named.name, url.port)}`;
    return url.toString();
  }

  private environmentOf(service: ComposeService): NodeJS.ProcessEnv {
    return Object.fromEntries(Object.entries(service.environment).map(([key, value]) => [key, this.mapped(value, service)]));
  }

  private async startService(service: ComposeService): Promise<void> {
    const role = roleOf(service);
    if (role === "herald") {
      const command = service.command ?? [];
      expect(command.slice(0, 3)).toEqual([...HERALD_COMMAND, "start"]);
      const environment: NodeJS.ProcessEnv = {
        ...this.environmentOf(service),
        // The port the image's PORT names, and the container's interfaces, which here are loopback's.
        PORT: String(this.port(service.name, service.environment.PORT!)),
        HOST: LOOPBACK,
        // An app of its own on the machine's shared Redis.
        NAME: this.name,
      };
      this.environments.set(service.name, environment);
      this.herald[service.name] = await HeraldProcess.start(REPOSITORY, environment, command.slice(3));
    } else if (role === "haproxy") {
      const config = service.mounts.find((mount) => mount.target === HAPROXY_IMAGE_CONFIG);
      expect(config).toMatchObject({ readOnly: true });
      const environment = this.environmentOf(service) as Record<string, string>;
      this.environments.set(service.name, environment);
      this.haproxy = Haproxy.start(environment, config!.source);
    }
    // PostgreSQL and Redis are this machine's, already running; the schema is made before the file's hooks.
  }
}
