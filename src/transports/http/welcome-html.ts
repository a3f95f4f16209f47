import { createHash } from "node:crypto";
import { escapeHtml } from "../../core/escape-html";
import { pageContentSecurityPolicy } from "./security-headers";

/** One action as the welcome page lists it. */
export interface WelcomeAction {
  name: string;
  description?: string;
  /** `GET /api/hello`, for an action with a web route. */
  route?: string;
  /** Where the route can be opened as it is: a GET route without params. */
  link?: string;
  transports: readonly string[];
}

/** What the welcome page shows; a part that does not run leaves its own out. */
export interface WelcomePage {
  appName: string;
  /** The file that would be served instead, relative to the app's folder: `public/index.html`. */
  publicIndex: string;
  actions: readonly WelcomeAction[];
  apiReference?: string;
  openApiDocument?: string;
  mcp?: { url: string; clientConfig: string };
  websocket?: { url: string; exampleMessage?: string };
  commands: readonly string[];
}

const STYLE = `:root{color-scheme:light dark;--muted:#5f6368;--line:#dadce0;--code:#f1f3f4}
@media (prefers-color-scheme:dark){:root{--muted:#9aa0a6;--line:#3c4043;--code:#202124}}
body{font:16px/1.5 system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem}
header p{color:var(--muted);margin-top:0}
h2{margin-top:2rem;font-size:1.25rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600}
td.nowrap{white-space:nowrap}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
pre{background:var(--code);padding:.75rem 1rem;overflow-x:auto;border-radius:6px}`;

/**
 * The page's own policy, stricter than the default one: nothing is fetched, nothing runs, and its
 * one inline style is allowed by its hash. The icon is an empty `data:` URL, so the browser asks
 * the server for no `/favicon.ico`.
 */
export const WELCOME_PAGE_POLICY = pageContentSecurityPolicy({
  "default-src": ["'none'"],
  "style-src": [`'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`],
  "img-src": ["data:"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
  "frame-ancestors": ["'none'"],
});

function actionRow(action: WelcomeAction): string {
  const route = action.route === undefined ? "" : action.link ? `<a href="${escapeHtml(action.link)}"><code>${escapeHtml(action.route)}</code></a>` : `<code>${escapeHtml(action.route)}</code>`;
  return `<tr><td class="nowrap"><code>${escapeHtml(action.name)}</code></td><td>${escapeHtml(action.description ?? "")}</td><td class="nowrap">${route}</td><td>${escapeHtml(action.transports.join(", "))}</td></tr>`;
}

function httpSection(page: WelcomePage): string {
  const links = [
    page.apiReference ? `<li><a href="${escapeHtml(page.apiReference)}">API reference</a>: <code>${escapeHtml(page.apiReference)}</code></li>` : "",
    page.openApiDocument ? `<li><a href="${escapeHtml(page.openApiDocument)}">OpenAPI document</a>: <code>${escapeHtml(page.openApiDocument)}</code></li>` : "",
  ].join("");
  return links ? `<section id="http-api"><h2>HTTP API</h2><ul>${links}</ul></section>` : "";
}

function mcpSection(mcp: WelcomePage["mcp"]): string {
  if (!mcp) return "";
  return `<section id="mcp"><h2>MCP</h2>
<p>The MCP endpoint is <code>${escapeHtml(mcp.url)}</code>. Paste this into an MCP client's configuration:</p>
<pre><code>${escapeHtml(mcp.clientConfig)}</code></pre>
<p>A desktop client can also run the app over stdio: <code>npx herald mcp</code> in the app's folder.</p></section>`;
}

function websocketSection(websocket: WelcomePage["websocket"]): string {
  if (!websocket) return "";
  return `<section id="websocket"><h2>WebSocket</h2>
<p>Open <code>${escapeHtml(websocket.url)}</code> and send one JSON message per frame${websocket.exampleMessage ? ", such as:" : "."}</p>
${websocket.exampleMessage ? `<pre><code>${escapeHtml(websocket.exampleMessage)}</code></pre>` : ""}</section>`;
}

/** The welcome page: self-contained HTML, every value of the app's escaped. */
export function renderWelcomePage(page: WelcomePage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.appName)} · Herald</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(page.appName)}</h1>
<p>A Herald app in development. This page stands in for <code>${escapeHtml(page.publicIndex)}</code>, which the app does not have: add that file and it is served here instead. Outside development this page is not served.</p>
</header>
<main>
<section id="actions"><h2>Actions</h2>
<table>
<thead><tr><th>Action</th><th>Description</th><th>HTTP</th><th>Transports</th></tr></thead>
<tbody>
${page.actions.map(actionRow).join("\n")}
</tbody>
</table></section>
${httpSection(page)}
${mcpSection(page.mcp)}
${websocketSection(page.websocket)}
<section id="cli"><h2>Command line</h2>
<pre><code>${page.commands.map(escapeHtml).join("\n")}</code></pre></section>
</main>
</body>
</html>
`;
}
