import { createHash } from "node:crypto";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import type { HttpMount } from "../core/http-mount";
import { acceptOnlyReads, requestPath, sendContent, sendNotFound } from "./http-replies";

/** Serves the OpenAPI document as JSON at exactly `path`, with an ETag so clients can revalidate. */
export function openApiDocumentMount(path: string, document: OpenAPIObject, production: boolean): HttpMount {
  const body = JSON.stringify(document);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return {
    path,
    handler(request, response) {
      if (requestPath(request) !== path) return sendNotFound(request, response, production);
      if (!acceptOnlyReads(request, response, production)) return;
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
