import { z } from "zod";
import { readSettings, type HeraldConfig } from "../../core/config";
import { zCommaList } from "../../core/setting-schemas";

const list = zCommaList.optional();

const schema = z.object({
  MCP_PATH: z.string().startsWith("/").default("/mcp"),
  /** The address clients reach the server at (`https://chat.example.com`): its host and origin are accepted. */
  PUBLIC_URL: z.url().optional(),
  /** Host header values accepted besides PUBLIC_URL's, the bound host and the loopback names; `*` for any. */
  MCP_ALLOWED_HOSTS: list,
  /** Origins accepted from browsers; none but the server's own when unset. */
  MCP_ALLOWED_ORIGINS: list,
  /** Open `subscriptions/listen` streams one process keeps; a new one past it is refused in-band. */
  MCP_MAX_SUBSCRIPTIONS: z.coerce.number().int().positive().default(1024),
});

export interface McpSettings {
  path: string;
  /** Host names accepted besides the bound host and the loopback names: PUBLIC_URL's and MCP_ALLOWED_HOSTS. */
  allowedHosts: string[];
  /** Browser origins accepted besides the server's own: PUBLIC_URL's and MCP_ALLOWED_ORIGINS. */
  allowedOrigins: string[];
  maxSubscriptions: number;
}

export function readMcpSettings(config: HeraldConfig): McpSettings {
  const values = readSettings(schema, config);
  const publicUrl = values.PUBLIC_URL === undefined ? undefined : new URL(values.PUBLIC_URL);
  return {
    path: values.MCP_PATH,
    allowedHosts: [...(publicUrl ? [publicUrl.hostname] : []), ...(values.MCP_ALLOWED_HOSTS ?? [])],
    allowedOrigins: [...(publicUrl ? [publicUrl.origin] : []), ...(values.MCP_ALLOWED_ORIGINS ?? [])],
    maxSubscriptions: values.MCP_MAX_SUBSCRIPTIONS,
  };
}
