import { z } from "zod";
import { HeraldConfig, readSettings } from "../../core/config";
import { zByteSize as byteSize, zOriginList as originList } from "../../core/setting-schemas";

const environmentSchema = z.object({
  HTTP_API_PREFIX: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, "must be a path such as /api, without a trailing slash")
    .default("/api"),
  HTTP_BODY_LIMIT: byteSize.default(1024 ** 2),
  HTTP_FILE_LIMIT: byteSize.default(10 * 1024 ** 2),
  HTTP_MAX_FILES: z.coerce.number().int().min(1).default(10),
  HTTP_PARSE_QUEUE_LIMIT: byteSize.default(32 * 1024 ** 2),
  HTTP_CORS_ORIGINS: originList.default([]),
  HTTP_STATIC_MAX_AGE: z.coerce.number().int().min(0).default(0),
  HTTP_SHUTDOWN_TIMEOUT: z.coerce.number().int().min(0).default(10_000),
  HTTP_HEADERS_TIMEOUT: z.coerce.number().int().min(1).default(60_000),
  HTTP_REQUEST_TIMEOUT: z.coerce.number().int().min(1).default(300_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  HTTP_TLS_CERT_FILE: z.string().optional(),
  HTTP_TLS_KEY_FILE: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
}).superRefine((values, context) => {
  if (values.HTTP_HEADERS_TIMEOUT > values.HTTP_REQUEST_TIMEOUT) {
    context.addIssue({ code: "custom", path: ["HTTP_HEADERS_TIMEOUT"], message: "must not be longer than HTTP_REQUEST_TIMEOUT" });
  }
  if (Boolean(values.HTTP_TLS_CERT_FILE) === Boolean(values.HTTP_TLS_KEY_FILE)) return;
  const missing = values.HTTP_TLS_CERT_FILE ? "HTTP_TLS_KEY_FILE" : "HTTP_TLS_CERT_FILE";
  context.addIssue({ code: "custom", path: [missing], message: "HTTPS needs both HTTP_TLS_CERT_FILE and HTTP_TLS_KEY_FILE" });
});

export interface HttpSettings {
  apiPrefix: string;
  /** Largest JSON or urlencoded request body, and largest multipart text field, in bytes. */
  bodyLimit: number;
  /** Largest multipart body, its files together, in bytes; only actions whose inputs take files read one. */
  fileLimit: number;
  maxFiles: number;
  /** The most bytes of JSON and urlencoded bodies waiting for their turn to be parsed, across the server; past it 503. */
  parseQueueLimit: number;
  /** Origins allowed to call cross-origin; `*` allows any, without credentials. */
  corsOrigins: string[];
  /** `Cache-Control: max-age` of static files, in seconds. */
  staticMaxAge: number;
  /** How long `stop` waits for in-flight requests before closing their connections, in ms. */
  shutdownTimeout: number;
  /** How long a client may take to send a request's head (slowloris), in ms; then 408 and the socket closes. */
  headersTimeout: number;
  /** How long a client may take to send a whole request, head and body, in ms; then 408. */
  requestTimeout: number;
  /** The most sockets one remote (TCP peer) address may hold open at once; 0: no cap. */
  maxConnectionsPerAddress: number;
  tls?: { certFile: string; keyFile: string };
  /** PUBLIC_URL: where clients reach the server, for the URLs the welcome page shows. */
  publicUrl?: URL;
}

/** The web transport's settings, from `HTTP_*` environment variables. */
export function readHttpSettings(config: Pick<HeraldConfig, "raw">): HttpSettings {
  const values = readSettings(environmentSchema, config);
  const { HTTP_TLS_CERT_FILE: certFile, HTTP_TLS_KEY_FILE: keyFile } = values;
  return {
    apiPrefix: values.HTTP_API_PREFIX,
    bodyLimit: values.HTTP_BODY_LIMIT,
    fileLimit: values.HTTP_FILE_LIMIT,
    maxFiles: values.HTTP_MAX_FILES,
    parseQueueLimit: values.HTTP_PARSE_QUEUE_LIMIT,
    corsOrigins: values.HTTP_CORS_ORIGINS,
    staticMaxAge: values.HTTP_STATIC_MAX_AGE,
    shutdownTimeout: values.HTTP_SHUTDOWN_TIMEOUT,
    headersTimeout: values.HTTP_HEADERS_TIMEOUT,
    requestTimeout: values.HTTP_REQUEST_TIMEOUT,
    maxConnectionsPerAddress: values.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    ...(certFile && keyFile ? { tls: { certFile, keyFile } } : {}),
    ...(values.PUBLIC_URL ? { publicUrl: new URL(values.PUBLIC_URL) } : {}),
  };
}

/**
 * Settings the web transport read once and reads no more: still set, each is named in a warning
 * at boot rather than refused, since what it chose is now always so.
 */
const REMOVED_SETTINGS: Readonly<Record<string, string>> = {
  HTTP_FAST_PATH: "every request beneath the API prefix is answered straight from node:http (docs/http.md)",
};

/** The removed settings the environment still sets, each with what became of it. */
export function removedHttpSettings(config: Pick<HeraldConfig, "raw">): { name: string; instead: string }[] {
  return Object.entries(REMOVED_SETTINGS)
    .filter(([name]) => config.raw[name] !== undefined)
    .map(([name, instead]) => ({ name, instead }));
}
