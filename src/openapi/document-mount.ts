import { createHash } from "node:crypto";
import type { HttpMount } from "../core/ports/http-mount";
import type { ResponseCodec } from "../core/response-codec";
import { acceptOnlyReads, requestPath, sendContent, sendNotFound } from "./http-replies";

/**
 * Serves a JSON document at exactly `path`, with an ETag so clients can revalidate. The document
 * is built by its first request: most boots never serve it.
 */
export function jsonDocumentMount(path: string, build: () => unknown, codec: ResponseCodec): HttpMount {
  let served: { body: string; etag: string } | undefined;
  const content = () => {
    if (!served) {
      const body = JSON.stringify(build());
      served = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    }
    return served;
  };
  return {
    path,
    handler(request, response) {
      if (requestPath(request) !== path) return sendNotFound(request, response, codec);
      if (!acceptOnlyReads(request, response, codec)) return;
      const { body, etag } = content();
      if (request.headers["if-none-match"] === etag) {
        response.writeHead(304, { ETag: etag, "Cache-Control": "no-cache" });
        response.end();
        return;
      }
      sendContent(request, response, body, {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-cache",
        ETag: etag,
      });
    },
  };
}
