import { z } from "zod";
import type { TrustProxy } from "./caller-address";
import { LogFormat, LogLevel } from "./constants";
import { ErrorType, TypedError } from "./errors";
import { LogParams } from "./log-params";
import { DEFAULT_PARAMS_BOUNDS, ParamsBounds } from "./params-bounds";

const port = z.coerce.number().int().min(0).max(65535);

/** Express's "trust proxy": true/false, a hop count, or addresses and subnets. */
const trustProxy = z.string().transform((text): TrustProxy => {
  if (text === "true") return true;
  if (text === "false") return false;
  return /^\d+$/.test(text) ? Number(text) : text;
});
const positiveMs = z.coerce.number().int().min(0);

const environmentSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  NAME: z.string().min(1).default("herald"),
  PORT: port.default(8080),
  HOST: z.string().min(1).optional(),
  DATABASE_URL: z.url().optional(),
  REDIS_URL: z.url().optional(),
  LOG_LEVEL: z.enum(LogLevel).optional(),
  LOG_FORMAT: z.enum(LogFormat).optional(),
  LOG_PARAMS: z.enum(LogParams).default(LogParams.values),
  ACTION_TIMEOUT: positiveMs.default(300_000),
  PARAMS_MAX_KEYS: z.coerce.number().int().min(1).default(DEFAULT_PARAMS_BOUNDS.maxKeys),
  PARAMS_MAX_VALUES: z.coerce.number().int().min(1).default(DEFAULT_PARAMS_BOUNDS.maxValues),
  HTTP_TRUST_PROXY: trustProxy.default(false),
  CHECK_OUTPUTS: z.enum(["true", "false"]).optional(),
});

const VARIABLES = Object.keys(environmentSchema.shape) as (keyof typeof environmentSchema.shape)[];

/** The process configuration, read from the environment and validated once at boot. */
export class HeraldConfig {
  readonly env!: "development" | "test" | "production";
  readonly name!: string;
  readonly port!: number;
  readonly host!: string;
  readonly databaseUrl?: string;
  readonly redisUrl?: string;
  readonly logLevel!: LogLevel;
  readonly logFormat!: LogFormat;
  /** What the request log says of a call's params: values (validated, redacted, bounded), keys, or none. */
  readonly logParams!: LogParams;
  readonly actionTimeout!: number;
  /** What one call's params may hold (keys per object, values in all), whatever the transport. */
  readonly paramsBounds!: ParamsBounds;
  /** Which proxies' `X-Forwarded-*` headers are believed, for every transport that has a network peer. */
  readonly trustProxy!: TrustProxy;
  /** Whether each response is checked against its action's `outputs`: outside production unless set. */
  readonly checkOutputs!: boolean;
  /** Every variable as read, after `NAME_<NODE_ENV>` overrides, for application settings. */
  readonly raw!: Readonly<Record<string, string | undefined>>;

  get production(): boolean {
    return this.env === "production";
  }

  constructor(values: Omit<HeraldConfig, "production">) {
    Object.assign(this, values);
  }
}

/**
 * Applies `NAME_<NODE_ENV>` overrides (for example `PORT_TEST=0`) on top of `NAME`, so one
 * environment file can serve every stage.
 */
export function resolveEnvironment(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const stage = (env.NODE_ENV ?? "development").toUpperCase();
  const resolved: Record<string, string | undefined> = { ...env };
  for (const [key, value] of Object.entries(env)) {
    const suffix = `_${stage}`;
    if (key.endsWith(suffix) && key.length > suffix.length) resolved[key.slice(0, -suffix.length)] = value;
  }
  for (const key of Object.keys(resolved)) if (resolved[key] === "") delete resolved[key];
  return resolved;
}

/**
 * The configuration from the environment. `defaults.name`, the app's own name (its package.json's),
 * stands in for an unset NAME before Herald's "herald".
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: { name?: string } = {}): HeraldConfig {
  const resolved = resolveEnvironment(env);
  if (resolved.NAME === undefined && defaults.name) resolved.NAME = defaults.name;
  const picked = Object.fromEntries(VARIABLES.map((name) => [name, resolved[name]]));
  const values = parseEnvironment(environmentSchema, picked, resolved);
  const production = values.NODE_ENV === "production";
  return new HeraldConfig({
    env: values.NODE_ENV,
    name: values.NAME,
    port: values.PORT,
    host: values.HOST ?? (production ? "0.0.0.0" : "127.0.0.1"),
    ...(values.DATABASE_URL ? { databaseUrl: values.DATABASE_URL } : {}),
    ...(values.REDIS_URL ? { redisUrl: values.REDIS_URL } : {}),
    logLevel: values.LOG_LEVEL ?? (values.NODE_ENV === "test" ? LogLevel.warn : LogLevel.info),
    logFormat: values.LOG_FORMAT ?? (production ? LogFormat.json : LogFormat.text),
    logParams: values.LOG_PARAMS,
    actionTimeout: values.ACTION_TIMEOUT,
    paramsBounds: { maxKeys: values.PARAMS_MAX_KEYS, maxValues: values.PARAMS_MAX_VALUES },
    trustProxy: values.HTTP_TRUST_PROXY,
    checkOutputs: values.CHECK_OUTPUTS === undefined ? !production : values.CHECK_OUTPUTS === "true",
    raw: Object.freeze(resolved),
  });
}

/**
 * Reads a part's own settings (a transport's, a driver's) from the environment, with the same
 * `NAME_<NODE_ENV>` overrides and the same fail-fast CONFIG_ERROR naming the variable.
 */
export function readSettings<S extends z.ZodObject>(schema: S, config: Pick<HeraldConfig, "raw">): z.output<S> {
  return parseEnvironment(schema, config.raw, config.raw);
}

function parseEnvironment<S extends z.ZodType>(
  schema: S,
  input: Record<string, string | undefined>,
  environment: Readonly<Record<string, string | undefined>>,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const variable = String(issue.path[0]);
  throw new TypedError({
    message: `Invalid environment variable ${variable}: ${issue.message}`,
    type: ErrorType.CONFIG_ERROR,
    key: variable,
    value: environment[variable],
  });
}
