import type { IncomingHttpHeaders } from "node:http";

/** The annotation of an input property whose value a client mirrors into a header (SEP-2243). */
const X_MCP_HEADER = "x-mcp-header";
const BASE64_PREFIX = "=?base64?";
const BASE64_SUFFIX = "?=";
/** Canonical Base64: the standard alphabet, padded to a multiple of four. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CANONICAL_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A top-level input of a tool mirrored into `Mcp-Param-<header>`. */
export interface ParamHeader {
  property: string;
  header: string;
  type: unknown;
}

/** The `x-mcp-header` declarations of a tool's input schema (its top-level properties). */
export function paramHeadersOf(inputSchema: { properties?: unknown }): ParamHeader[] {
  const properties = (inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).flatMap(([property, schema]) => {
    const header = schema?.[X_MCP_HEADER];
    return typeof header === "string" && header ? [{ property, header, type: schema.type }] : [];
  });
}

/** A header value as the client meant it: a Base64 sentinel decoded as UTF-8, anything else as it is; undefined for a broken sentinel. */
function decoded(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) return value;
  const payload = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(payload, "base64"));
  } catch {
    return undefined;
  }
}

function matches(header: string, body: string | number | boolean, type: unknown): boolean {
  if ((type === "number" || type === "integer") && typeof body === "number" && CANONICAL_DECIMAL.test(header)) return Number(header) === body;
  return header === String(body);
}

/**
 * Why a `tools/call`'s `Mcp-Param-*` headers disagree with its arguments, or undefined: a value
 * the body carries must come with its header, decoding to the same value (SEP-2243). A body
 * without the value expects no header.
 */
export function paramHeaderMismatch(declarations: readonly ParamHeader[], args: unknown, headers: IncomingHttpHeaders): { header: string; body: string } | undefined {
  for (const { property, header, type } of declarations) {
    const value = (args as Record<string, unknown> | undefined)?.[property];
    if (value === undefined || value === null || typeof value === "object") continue;
    const name = `Mcp-Param-${header}`;
    const sent = headers[name.toLowerCase()];
    const text = Array.isArray(sent) ? sent.join(", ") : sent;
    if (text === undefined) return { header: name, body: `the body carries ${property}=${JSON.stringify(value)} but the ${name} header is absent` };
    const meant = decoded(text);
    if (meant === undefined) return { header: name, body: `the ${name} header carries an invalid Base64 value` };
    if (!matches(meant, value as string | number | boolean, type)) {
      return { header: name, body: `the ${name} header decodes to ${JSON.stringify(meant)} but the body carries ${property}=${JSON.stringify(value)}` };
    }
  }
  return undefined;
}
