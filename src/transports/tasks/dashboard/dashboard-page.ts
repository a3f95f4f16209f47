import { escapeHtml } from "../../../core/escape-html";
import type { ActionMiddleware } from "../../../core/middleware";
import type { HttpMount } from "../../../core/ports/http-mount";
import type { ResponseCodec } from "../../../core/response-codec";
import { acceptOnlyReads, requestPath, sendContent, sendNotFound } from "../../../openapi/http-replies";
import { DASHBOARD_SCRIPT } from "./dashboard-script";
import { DASHBOARD_STYLE } from "./dashboard-style";

export interface DashboardPageOptions {
  /** Where the page is served (TASKS_DASHBOARD_PATH); its script and style beneath it. */
  path: string;
  /** The prefix the actions are served under, which the page calls. */
  apiPrefix: string;
  appName: string;
  /** The admin check: the page asks for, and sends, the header its `security` names. */
  guard: ActionMiddleware;
  codec: ResponseCodec;
}

/** The header the page sends the operator's credential in, from what the admin check declares; none for a cookie or no check. */
export interface PageCredential {
  header: string;
  /** Written before the credential: `Bearer ` for a bearer token. */
  prefix: string;
  label: string;
}

export function pageCredential(guard: ActionMiddleware): PageCredential | undefined {
  for (const { scheme } of guard.security ?? []) {
    if (scheme.type === "apiKey" && scheme.in === "header") {
      return { header: scheme.name.toLowerCase(), prefix: "", label: scheme.description ?? `The ${scheme.name} header` };
    }
    if (scheme.type === "http" && scheme.scheme.toLowerCase() === "bearer") {
      return { header: "authorization", prefix: "Bearer ", label: scheme.description ?? "A bearer token" };
    }
  }
  return undefined;
}

const CONTENT_TYPES = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

/**
 * The dashboard page: HTML that holds no job data, its script and its style. The script fills
 * it from the dashboard's actions, over HTTP, as any caller of them would.
 */
export function dashboardPageMount(options: DashboardPageOptions): HttpMount {
  const { path, codec } = options;
  const files: Record<string, { body: string; type: string }> = {
    "": { body: pageHtml(options), type: CONTENT_TYPES.html },
    "dashboard.js": { body: DASHBOARD_SCRIPT, type: CONTENT_TYPES.js },
    "dashboard.css": { body: DASHBOARD_STYLE, type: CONTENT_TYPES.css },
  };
  return {
    path,
    handler(request, response) {
      const requested = requestPath(request);
      const rest = requested === path ? "" : requested.startsWith(`${path}/`) ? requested.slice(path.length + 1) : undefined;
      const file = rest === undefined ? undefined : files[rest];
      if (!file) return sendNotFound(request, response, codec);
      if (!acceptOnlyReads(request, response, codec)) return;
      sendContent(request, response, file.body, { "Content-Type": file.type, "Cache-Control": "no-cache" });
    },
  };
}

function pageHtml({ path, apiPrefix, appName, guard }: DashboardPageOptions): string {
  const credential = pageCredential(guard);
  const credentialData = credential
    ? ` data-credential-header="${escapeHtml(credential.header)}" data-credential-prefix="${escapeHtml(credential.prefix)}"`
    : "";
  const credentialForm = credential
    ? `<form id="credential" hidden><label>${escapeHtml(credential.label)} <input id="credential-value" type="password" autocomplete="off" required></label> <button type="submit">Use</button></form>`
    : `<form id="credential" hidden></form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(appName)} · tasks</title>
<link rel="stylesheet" href="${escapeHtml(path)}/dashboard.css">
<link rel="icon" href="data:,">
</head>
<body data-api="${escapeHtml(apiPrefix)}"${credentialData}>
<header>
<h1>${escapeHtml(appName)} · tasks</h1>
<button id="refresh" type="button">Refresh</button>
<span id="state" data-state="loading">Loading…</span>
</header>
${credentialForm}
<p id="problem" role="alert" hidden></p>
<p id="notice" role="status" hidden></p>
<main>
<section>
<h2>Queues</h2>
<table id="queues">
<thead><tr><th>queue</th><th class="count">waiting</th><th class="count">active</th><th class="count">delayed</th><th class="count">failed</th><th class="count">completed</th></tr></thead>
<tbody></tbody>
</table>
<p id="no-queues" hidden>No task action names a queue.</p>
</section>
<section>
<h2>Recent failures</h2>
<table id="failures">
<thead><tr><th>job</th><th>queue</th><th>action</th><th>params</th><th class="count">attempts</th><th>failed at</th><th>error</th><th></th></tr></thead>
<tbody></tbody>
</table>
<p id="no-failures" hidden>No failed jobs.</p>
</section>
<section>
<h2>Schedules</h2>
<table id="schedules">
<thead><tr><th>action</th><th>queue</th><th>runs</th><th>last run</th><th>next run</th></tr></thead>
<tbody></tbody>
</table>
<p id="no-schedules" hidden>No task runs by itself.</p>
</section>
</main>
<script src="${escapeHtml(path)}/dashboard.js"></script>
</body>
</html>
`;
}
