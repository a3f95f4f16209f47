import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, extname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { escapeHtml } from "../core/escape-html";
import type { HttpMount } from "../core/ports/http-mount";
import type { ResponseCodec } from "../core/response-codec";
import { acceptOnlyReads, requestPath, sendContent, sendNotFound } from "./http-replies";

/** The swagger-ui-dist files the page needs; nothing else in the package folder is served. */
const ASSETS = new Set([
  "swagger-ui.css",
  "swagger-ui.css.map",
  "swagger-ui-bundle.js",
  "swagger-ui-bundle.js.map",
  "favicon-16x16.png",
  "favicon-32x32.png",
]);

const CONTENT_TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".png": "image/png",
};

export interface ReferencePageOptions {
  /** Where the page is served, e.g. `/api/docs`; its assets are served beneath it. */
  path: string;
  /** The URL of the OpenAPI document the page renders. */
  documentUrl: string;
  title: string;
  /** How its refusals are shown: the server's codec. */
  codec: ResponseCodec;
}

export function swaggerUiFolder(): string {
  return dirname(require.resolve("swagger-ui-dist/package.json"));
}

/**
 * The API reference page: Swagger UI from the installed swagger-ui-dist package, rendering the
 * document at `documentUrl`. Its script is a file rather than inline, so a Content-Security-Policy
 * of `script-src 'self'` still lets it run.
 */
export function referencePageMount(options: ReferencePageOptions): HttpMount {
  const { path, codec } = options;
  const folder = swaggerUiFolder();
  const page = pageHtml(options);
  const startScript = startScriptJs(options.documentUrl);
  return {
    path,
    async handler(request, response) {
      const requested = requestPath(request);
      const rest = requested === path ? "" : requested.startsWith(`${path}/`) ? requested.slice(path.length + 1) : undefined;
      if (rest === undefined) return sendNotFound(request, response, codec);
      if (!acceptOnlyReads(request, response, codec)) return;
      if (rest === "" || rest === "index.html") {
        return sendContent(request, response, page, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" });
      }
      if (rest === "start.js") {
        return sendContent(request, response, startScript, { "Content-Type": CONTENT_TYPES[".js"]!, "Cache-Control": "no-cache" });
      }
      if (!ASSETS.has(rest)) return sendNotFound(request, response, codec);
      await sendAsset(request, response, join(folder, rest));
    },
  };
}

async function sendAsset(request: IncomingMessage, response: ServerResponse, file: string): Promise<void> {
  const { size } = await stat(file);
  response.writeHead(200, {
    "Content-Type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
    "Content-Length": size,
    "Cache-Control": "public, max-age=86400",
  });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  await pipeline(createReadStream(file), response);
}

function pageHtml({ path, title }: ReferencePageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · API reference</title>
<link rel="stylesheet" href="${escapeHtml(path)}/swagger-ui.css">
<link rel="icon" type="image/png" href="${escapeHtml(path)}/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${escapeHtml(path)}/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${escapeHtml(path)}/swagger-ui-bundle.js"></script>
<script src="${escapeHtml(path)}/start.js"></script>
</body>
</html>
`;
}

function startScriptJs(documentUrl: string): string {
  // validatorUrl null: the page must not send the document to swagger.io's public validator.
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentUrl)},
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null,
});
`;
}
