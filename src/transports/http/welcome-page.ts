import type { IncomingMessage } from "node:http";
import { join, relative } from "node:path";
import type { RequestHandler } from "express";
import { servingTransports } from "../../core/action-transports";
import { CONNECTION_TYPE } from "../../core/constants";
import type { RegisteredAction } from "../../core/registry";
import type { HeraldServer } from "../../core/server";
import { exampleParams } from "../../contract/example-params";
import type { RequestOrigin } from "./request-origin";
import { routeTemplate } from "./route-template";
import type { HttpSettings } from "./settings";
import { renderWelcomePage, WELCOME_PAGE_POLICY, type WelcomeAction, type WelcomePage } from "./welcome-html";

/** A value as a shell takes it: bare when it holds nothing the shell reads, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** An action command as typed: `npx herald hello:say --who world`; a flag without a value is a true boolean. */
function commandLine(name: string, params: Record<string, unknown>): string {
  const flags = Object.entries(params).flatMap(([field, value]) => {
    const values = Array.isArray(value) ? value : [value];
    return values.flatMap((item) => {
      if (item === true) return [`--${field}`];
      if (item === null || typeof item === "object") return [];
      return [`--${field} ${shellWord(String(item))}`];
    });
  });
  return ["npx herald", shellWord(name), ...flags].join(" ");
}

/** The app's own action to show a call of, over `transport`: one that takes params first, then by name; Herald's `status` when the app has none. */
function exampleAction(entries: readonly RegisteredAction[], transport: CONNECTION_TYPE): RegisteredAction | undefined {
  const serving = entries.filter((entry) => servingTransports(entry.action).includes(transport));
  const own = serving.filter((entry) => !entry.builtin);
  return own.find((entry) => entry.action.inputs !== undefined) ?? own[0] ?? serving[0];
}

function listed(entry: RegisteredAction, apiPrefix: string): WelcomeAction {
  const { action } = entry;
  const row: WelcomeAction = { name: entry.name, transports: servingTransports(action) };
  if (action.description) row.description = action.description;
  if (!action.web || !row.transports.includes(CONNECTION_TYPE.web)) return row;
  const method = String(action.web.method).toUpperCase();
  const path = routeTemplate(apiPrefix, entry);
  row.route = `${method} ${path}`;
  // Only a route that is a path as written can be opened as a link.
  if (method === "GET" && typeof action.web.route === "string" && !/[:*{(]/.test(action.web.route)) row.link = path;
  return row;
}

/** The app's actions first, by name, then Herald's own. */
function byListing(a: RegisteredAction, b: RegisteredAction): number {
  return Number(a.builtin === true) - Number(b.builtin === true) || a.name.localeCompare(b.name);
}

/** The site's address for this request: PUBLIC_URL when set, else the host and scheme the request came to. */
function siteUrl(req: IncomingMessage, publicUrl: URL | undefined, origin: RequestOrigin, fallback: string): URL {
  if (publicUrl) return publicUrl;
  const host = origin.host(req);
  const fromRequest = host === undefined ? null : URL.parse(`${origin.secure(req) ? "https" : "http"}://${host}`);
  return fromRequest ?? new URL(fallback);
}

function describeApp(server: HeraldServer, apiPrefix: string, site: URL): WelcomePage {
  const entries = server.registry.list().sort(byListing);
  const { entryPoints, config } = server;
  const page: WelcomePage = {
    appName: config.name,
    publicIndex: relative(server.app.root, join(server.app.public, "index.html")),
    actions: entries.map((entry) => listed(entry, apiPrefix)),
    commands: ["npx herald actions"],
  };
  if (entryPoints.apiReference) page.apiReference = entryPoints.apiReference;
  if (entryPoints.openApiDocument) page.openApiDocument = entryPoints.openApiDocument;
  if (entryPoints.mcp) {
    const url = new URL(entryPoints.mcp, site).href;
    page.mcp = { url, clientConfig: JSON.stringify({ mcpServers: { [config.name]: { url } } }, null, 2) };
  }
  if (entryPoints.websocket) {
    const socketAction = exampleAction(entries, CONNECTION_TYPE.websocket);
    const url = new URL(entryPoints.websocket, site);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    page.websocket = { url: url.href };
    if (socketAction) {
      const message = { messageType: "action", messageId: "1", action: socketAction.name, params: exampleParams(socketAction.action) };
      page.websocket.exampleMessage = JSON.stringify(message);
    }
  }
  const commandAction = exampleAction(entries, CONNECTION_TYPE.cli);
  if (commandAction) page.commands = [...page.commands, commandLine(commandAction.name, exampleParams(commandAction.action))];
  return page;
}

/**
 * The development page at `/` of an app without its own `index.html`: what the app serves and how
 * to call it. Placed after the static files, so that the app's own page wins; installed only in
 * development. Rendered for each request, from the request's host.
 */
export function welcomePage(server: HeraldServer, settings: Pick<HttpSettings, "apiPrefix" | "publicUrl">, origin: RequestOrigin): RequestHandler {
  return (req, res, next) => {
    if (req.path !== "/" || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const site = siteUrl(req, settings.publicUrl, origin, server.url ?? `http://${server.config.host}`);
    const body = renderWelcomePage(describeApp(server, settings.apiPrefix, site));
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      "Content-Security-Policy": WELCOME_PAGE_POLICY,
    });
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
