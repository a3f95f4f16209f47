import { z } from "zod";
import { readSettings, type HeraldConfig } from "../../core/config";
import { zCommaList } from "../../core/setting-schemas";

const list = zCommaList.optional();

const schema = z.object({
  MCP_PATH: z.string().startsWith("/").default("/mcp"),
  /** stateless: a fresh MCP server per request, for load balancers without sticky sessions. */
  MCP_MODE: z.enum(["sessions", "stateless"]).default("sessions"),
  /** Host header values accepted besides the bound host and the loopback names. */
  MCP_ALLOWED_HOSTS: list,
  /** Origins accepted from browsers; none but the server's own when unset. */
  MCP_ALLOWED_ORIGINS: list,
  MCP_SESSION_IDLE_MS: z.coerce.number().int().positive().default(30 * 60_000),
});

export interface McpSettings {
  path: string;
  mode: "sessions" | "stateless";
  allowedHosts: string[];
  allowedOrigins: string[];
  sessionIdleMs: number;
}

export function readMcpSettings(config: HeraldConfig): McpSettings {
  const values = readSettings(schema, config);
  return {
    path: values.MCP_PATH,
    mode: values.MCP_MODE,
    allowedHosts: values.MCP_ALLOWED_HOSTS ?? [],
    allowedOrigins: values.MCP_ALLOWED_ORIGINS ?? [],
    sessionIdleMs: values.MCP_SESSION_IDLE_MS,
  };
}
