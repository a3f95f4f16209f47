import accepts from "accepts";
import type { ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import vary from "vary";
import { heldHeaderObject, releaseHeldHeaders, takeHeldHeaders } from "./held-headers";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Bodies below this many bytes are sent as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** The quality `compression` uses too: brotli's default (11) costs far more CPU for a few percent. */
const BROTLI_QUALITY = 4;

type ContentEncoding = "gzip" | "br";

function compress(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  if (encoding === "gzip") return gzipAsync(body);
  return brotliAsync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

/** The encoding the client prefers among those offered; none when it sent no Accept-Encoding. */
function negotiate(res: ServerResponse): ContentEncoding | undefined {
  const { req } = res;
  if (req.method === "HEAD" || !req.headers["accept-encoding"]) return undefined;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader("Cache-Control") ?? ""))) return undefined;
  if (res.getHeader("Content-Encoding") !== undefined) return undefined;
  const accepted = accepts(req).encodings(["gzip", "br"]);
  return accepted === "gzip" || accepted === "br" ? accepted : undefined;
}

/**
 * Ends the response with a JSON text: `Content-Type: application/json; charset=utf-8`, its
 * length, and no ETag (see docs/http.md). A body of at least 1 KiB is gzip- or
 * brotli-compressed, off the event loop, when the client accepts it; such a body carries
 * `Vary: Accept-Encoding` whether compressed or not, smaller ones never vary. A small body is
 * sent at once and nothing is returned; a compressible one returns the promise of its sending.
 */
export function sendJsonText(res: ServerResponse, status: number, text: string): Promise<void> | undefined {
  const length = Buffer.byteLength(text);
  const held = takeHeldHeaders(res);
  const body = res.req.method === "HEAD" ? undefined : text;
  // Nothing set on the response yet: all its headers go in one writeHead (see held-headers).
  if (held && length < COMPRESSION_THRESHOLD && res.getHeaderNames().length === 0) {
    res.writeHead(status, heldHeaderObject(held, { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": length }));
    res.end(body);
    return undefined;
  }
  if (held) releaseHeldHeaders(res, held);
  res.statusCode = status;
  res.setHeader("Content-Type", JSON_CONTENT_TYPE);
  if (length >= COMPRESSION_THRESHOLD) return sendCompressible(res, text);
  res.setHeader("Content-Length", length);
  res.end(body);
  return undefined;
}

async function sendCompressible(res: ServerResponse, text: string): Promise<void> {
  const head = res.req.method === "HEAD";
  vary(res, "Accept-Encoding");
  const encoding = negotiate(res);
  const body = Buffer.from(text);
  if (encoding) {
    const compressed = await compress(body, encoding).catch(() => undefined);
    if (res.destroyed) return;
    if (compressed && !res.headersSent) {
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", compressed.length);
      return void res.end(compressed);
    }
  }
  if (res.headersSent) return;
  res.setHeader("Content-Length", body.length);
  res.end(head ? undefined : body);
}
