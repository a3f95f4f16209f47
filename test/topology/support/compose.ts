import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";

/** The repository's root: where compose.yaml and the Dockerfile are, and what the image's /app holds. */
export const REPOSITORY = join(__dirname, "../../..");
export const COMPOSE_FILE = join(REPOSITORY, "compose.yaml");

/** What compose reads `${…}` from: the shell's environment and the project's .env file. */
export type ComposeVariables = Record<string, string | undefined>;

/** A port a service publishes: the host's, and the container's it leads to. */
export interface PublishedPort {
  published: number;
  target: number;
}

/** A file or folder of the host that a service mounts. */
export interface BindMount {
  /** Absolute, read relative to the compose file as compose does. */
  source: string;
  target: string;
  readOnly: boolean;
}

/** A service of the compose file as its container gets it, every `${…}` interpolated. */
export interface ComposeService {
  name: string;
  image: string | undefined;
  /** The folder it is built from, when it is built; undefined for a pulled image. */
  buildContext: string | undefined;
  /**
   * What its container runs: the service's `command`, else the CMD of the image it builds;
   * undefined for a pulled image with no `command`, whose default the file does not say.
   */
  command: string[] | undefined;
  /** The ENV of the image it builds, then the service's `environment` over it. */
  environment: Record<string, string>;
  /** The services it waits for, each with the condition it waits for. */
  dependsOn: Record<string, string>;
  ports: PublishedPort[];
  mounts: BindMount[];
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Where the `}` closing a `${` that opened before `from` is: defaults may hold `${…}` of their own. */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let at = from; at < text.length; at++) {
    if (text.startsWith("${", at)) {
      depth += 1;
      at += 1;
    } else if (text[at] === "}" && --depth === 0) return at;
  }
  throw new Error(`invalid interpolation format: an unclosed \${ in ${text}`);
}

/** `NAME` or `NAME<operator><operand>`, the inside of a `${…}`, with compose's operators :- - :? ? :+ +. */
function substitute(expression: string, variables: ComposeVariables): string {
  const [, name, operator, operand] = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(expression) ?? [];
  if (!name) throw new Error(`invalid interpolation format: \${${expression}}`);
  const value = variables[name];
  const empty = operator?.startsWith(":") ? !value : value === undefined;
  switch (operator?.replace(":", "")) {
    case undefined:
      return value ?? "";
    case "-":
      return empty ? interpolate(operand!, variables) : value!;
    case "+":
      return empty ? "" : interpolate(operand!, variables);
    default:
      if (empty) throw new Error(`required variable ${name} is missing a value: ${interpolate(operand!, variables)}`);
      return value!;
  }
}

/**
 * One string as compose interpolates it: `$$`, `$NAME`, `${NAME}` and `${NAME<operator><operand>}`.
 * A `${NAME:?message}` whose variable is unset or empty (or `${NAME?message}`, unset) throws
 * compose's error, naming the variable and the message.
 */
export function interpolate(text: string, variables: ComposeVariables): string {
  let result = "";
  for (let at = 0; at < text.length; ) {
    if (text[at] !== "$") {
      result += text[at++];
    } else if (text[at + 1] === "$") {
      result += "$";
      at += 2;
    } else if (text[at + 1] === "{") {
      const end = closingBrace(text, at + 2);
      result += substitute(text.slice(at + 2, end), variables);
      at = end + 1;
    } else {
      const name = VARIABLE_NAME.exec(text.slice(at + 1))?.[0];
      result += name ? (variables[name] ?? "") : "$";
      at += 1 + (name?.length ?? 0);
    }
  }
  return result;
}

function interpolateAll(value: unknown, variables: ComposeVariables): unknown {
  if (typeof value === "string") return interpolate(value, variables);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, variables));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, variables)]));
  return value;
}

/** What an image built from `dockerfile` runs and has in its environment: its last stage's CMD and ENV. */
function imageDefaults(dockerfile: string): { command: string[] | undefined; environment: Record<string, string> } {
  const instructions = readFileSync(dockerfile, "utf8")
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const lastFrom = instructions.reduce((last, line, index) => (/^FROM\s/i.test(line) ? index : last), 0);
  const lastStage = instructions.slice(lastFrom);
  let command: string[] | undefined;
  const environment: Record<string, string> = {};
  for (const line of lastStage) {
    const [, keyword, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (keyword?.toUpperCase() === "CMD") command = rest!.startsWith("[") ? (JSON.parse(rest!) as string[]) : ["/bin/sh", "-c", rest!];
    if (keyword?.toUpperCase() === "ENV") {
      // `ENV NAME value`, the older form, sets one variable to the rest of the line.
      const older = /^(\S+)\s+([^=]*)$/.exec(rest!);
      if (older) environment[older[1]!] = older[2]!;
      else {
        for (const [, key, value] of rest!.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
          environment[key!] = value!.startsWith('"') ? (JSON.parse(value!) as string) : value!;
        }
      }
    }
  }
  return { command, environment };
}

type Raw = Record<string, any>;

function environmentOf(raw: Raw, variables: ComposeVariables): Record<string, string> {
  const entries: [string, unknown][] = Array.isArray(raw.environment)
    ? (raw.environment as string[]).map((item) => {
        const at = item.indexOf("=");
        return at < 0 ? [item, null] : [item.slice(0, at), item.slice(at + 1)];
      })
    : Object.entries((raw.environment ?? {}) as Raw);
  const environment: Record<string, string> = {};
  for (const [key, value] of entries) {
    // A name without a value takes the variable's, and stays unset without one.
    const given = value === null ? variables[key] : String(value);
    if (given !== undefined) environment[key] = given;
  }
  return environment;
}

function portsOf(raw: Raw): PublishedPort[] {
  return ((raw.ports ?? []) as unknown[]).map((port) => {
    if (port && typeof port === "object") return { published: Number((port as Raw).published), target: Number((port as Raw).target) };
    const parts = String(port).split(":");
    const target = Number(parts.at(-1));
    return { published: parts.length > 1 ? Number(parts.at(-2)) : target, target };
  });
}

function mountsOf(raw: Raw, projectDirectory: string): BindMount[] {
  const mounts: BindMount[] = [];
  for (const volume of (raw.volumes ?? []) as unknown[]) {
    if (volume && typeof volume === "object") {
      const long = volume as Raw;
      if (long.type === "bind") mounts.push({ source: resolve(projectDirectory, long.source), target: long.target, readOnly: Boolean(long.read_only) });
      continue;
    }
    const [source, target, mode] = String(volume).split(":");
    // A source that is no path names a volume of compose's own.
    if (/^[./~]/.test(source!)) mounts.push({ source: resolve(projectDirectory, source!), target: target!, readOnly: mode?.split(",").includes("ro") ?? false });
  }
  return mounts;
}

/**
 * The services of a compose file (compose.yaml unless said), with `${…}` interpolated from
 * `variables` (nothing from this process's environment), YAML merge keys applied, and what the
 * image a service builds gives its container (CMD, ENV) filled in. Throws compose's error when a
 * required variable is missing.
 */
export function readCompose(variables: ComposeVariables, file = COMPOSE_FILE): Record<string, ComposeService> {
  const projectDirectory = resolve(file, "..");
  const document = interpolateAll(parse(readFileSync(file, "utf8"), { merge: true }), variables) as Raw;
  const services: Record<string, ComposeService> = {};
  for (const [name, raw] of Object.entries(document.services as Record<string, Raw>)) {
    const build: Raw | undefined = typeof raw.build === "string" ? { context: raw.build } : raw.build;
    const buildContext = build ? resolve(projectDirectory, build.context ?? ".") : undefined;
    const image = buildContext ? imageDefaults(join(buildContext, build!.dockerfile ?? "Dockerfile")) : { command: undefined, environment: {} };
    const command = raw.command === undefined ? image.command : Array.isArray(raw.command) ? (raw.command as string[]) : String(raw.command).split(/\s+/);
    const dependsOn = Array.isArray(raw.depends_on)
      ? Object.fromEntries((raw.depends_on as string[]).map((service) => [service, "service_started"]))
      : Object.fromEntries(Object.entries((raw.depends_on ?? {}) as Raw).map(([service, options]) => [service, (options?.condition as string) ?? "service_started"]));
    services[name] = {
      name,
      image: raw.image,
      buildContext,
      command,
      environment: { ...image.environment, ...environmentOf(raw, variables) },
      dependsOn,
      ports: portsOf(raw),
      mounts: mountsOf(raw, projectDirectory),
    };
  }
  return services;
}
