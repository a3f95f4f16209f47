import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import WebSocket from "ws";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { jsonLogs, type JsonLogs, type LogLine } from "../../support/json-logs";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../../support/scratch-apps";

/** A development server answers CLI commands on a socket in its app folder: each server gets its own copy of the app. */
const scratchDirs: string[] = [];
afterAll(() => scratchDirs.splice(0).forEach(removeScratchDir));

async function boot(name: string, env: NodeJS.ProcessEnv, logs?: JsonLogs<LogLine>): Promise<{ server: HeraldServer; appDir: string }> {
  const scratch = makeScratchDir(`welcome-${name}-`);
  scratchDirs.push(scratch);
  const appDir = copyFixtureApp("welcome", scratch);
  const server = await startTestServer({
    appDir,
    env: { REDIS_URL: "", LOG_LEVEL: "fatal", ...env },
    ...(logs ? { logDestination: logs.stream } : {}),
  });
  return { server, appDir };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request sent as written: fetch will not send another `Host`. */
function send(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    })
      .on("error", reject)
      .end();
  });
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The text a browser shows for a piece of the page's HTML. */
function shownText(html: string): string {
  return html.replace(/<[^>]+>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);
}

/** The text of each `<pre>` block of one section of the page. */
function blocksOf(page: string, section: string): string[] {
  const body = new RegExp(`<section id="${section}">([\\s\\S]*?)</section>`).exec(page)?.[1];
  if (body === undefined) throw new Error(`The page has no section "${section}"`);
  return [...body.matchAll(/<pre>([\s\S]*?)<\/pre>/g)].map((match) => shownText(match[1]!));
}

function rowOf(page: string, action: string): string {
  const row = page.split("<tr>").find((cells) => cells.startsWith(`<td class="nowrap"><code>${action}</code>`));
  if (row === undefined) throw new Error(`The page has no row for ${action}`);
  return row.slice(0, row.indexOf("</tr>"));
}

describe("in development, an app without public/index.html", () => {
  const logs = jsonLogs();
  let server: HeraldServer;
  let appDir: string;
  beforeAll(async () => {
    ({ server, appDir } = await boot("development", { NODE_ENV: "development", LOG_LEVEL: "info", LOG_FORMAT: "json" }, logs));
  }, HOOK_TIMEOUT);
  afterAll(() => server?.stop(), HOOK_TIMEOUT);

  test("shows a page at / with its name, under a policy of its own that lets its inline style through by hash", async () => {
    const { status, headers, body } = await send(`${server.url}/`);
    expect(status).toBe(200);
    expect(headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(headers["cache-control"]).toBe("no-store");
    expect(headers["content-security-policy"]).toMatch(/^default-src 'none';style-src 'sha256-[A-Za-z0-9+/]+=*';img-src data:;base-uri 'none';form-action 'none';frame-ancestors 'none'$/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-request-id"]).toBeTruthy();
    expect(body).toContain("<title>welcome-fixture · Herald</title>");
    expect(body).toContain("<h1>welcome-fixture</h1>");
    expect(shownText(body)).toContain("This page stands in for public/index.html");
  });

  test("lists each action with its description, route and transports, the app's first and Herald's status last", async () => {
    const { body } = await send(`${server.url}/`);
    expect(shownText(rowOf(body, "notes:list"))).toBe("notes:listLists the notesGET /api/notesweb, websocket, cli, mcp");
    expect(rowOf(body, "notes:list")).toContain('<a href="/api/notes"><code>GET /api/notes</code></a>');
    expect(shownText(rowOf(body, "notes:view"))).toBe("notes:viewGET /api/notes/:indexweb, websocket, cli, mcp");
    expect(rowOf(body, "notes:view")).not.toContain("<a ");
    expect(shownText(rowOf(body, "notes:count"))).toBe("notes:countCounts the notes, from the command line onlycli");
    const order = [...body.matchAll(/<tr><td class="nowrap"><code>([^<]+)<\/code>/g)].map((match) => match[1]);
    expect(order).toEqual(["notes:add", "notes:broken", "notes:count", "notes:list", "notes:view", "status"]);
  });

  test("an action's description is app text: its markup is shown as text, never run", async () => {
    const { body } = await send(`${server.url}/`);
    expect(rowOf(body, "notes:add")).toContain("Adds a note &lt;script&gt;alert(&quot;welcome&quot;)&lt;/script&gt; &amp; keeps it");
    expect(shownText(rowOf(body, "notes:add"))).toContain(`Adds a note <script>alert("welcome")</script> & keeps it`);
    expect(body).not.toMatch(/<script/i);
  });

  test("links to the API reference page and the OpenAPI document, which are served there", async () => {
    const { body } = await send(`${server.url}/`);
    expect(body).toContain('<a href="/api/docs">API reference</a>');
    expect(body).toContain('<a href="/api/openapi.json">OpenAPI document</a>');
    expect((await send(`${server.url}/api/docs`)).status).toBe(200);
    expect((await send(`${server.url}/api/openapi.json`)).status).toBe(200);
  });

  test("gives the MCP endpoint on the request's host, with a client configuration to paste", async () => {
    const { body } = await send(`${server.url}/`);
    const mcpUrl = `${server.url}/mcp`;
    expect(shownText(body)).toContain(`The MCP endpoint is ${mcpUrl}.`);
    expect(JSON.parse(blocksOf(body, "mcp")[0]!)).toEqual({ mcpServers: { "welcome-fixture": { url: mcpUrl } } });
    const port = new URL(server.url!).port;
    const asLocalhost = await send(`${server.url}/`, { headers: { Host: `localhost:${port}` } });
    expect(JSON.parse(blocksOf(asLocalhost.body, "mcp")[0]!)).toEqual({ mcpServers: { "welcome-fixture": { url: `http://localhost:${port}/mcp` } } });
  });

  test("gives the WebSocket URL and a message that the socket answers", async () => {
    const { body } = await send(`${server.url}/`);
    const socketUrl = `${server.url!.replace(/^http/, "ws")}/ws`;
    expect(shownText(body)).toContain(`Open ${socketUrl} and send`);
    const message = JSON.parse(blocksOf(body, "websocket")[0]!) as { messageId: string };
    expect(message).toEqual({ messageType: "action", messageId: "1", action: "notes:add", params: { text: "example" } });
    const socket = new WebSocket(socketUrl);
    try {
      const reply = new Promise<unknown>((resolve, reject) => {
        socket.once("message", (data) => resolve(JSON.parse(String(data))));
        socket.once("error", reject);
      });
      await new Promise<void>((resolve, reject) => socket.once("open", resolve).once("error", reject));
      socket.send(JSON.stringify(message));
      expect(await reply).toEqual({ messageId: "1", response: { count: expect.any(Number) } });
    } finally {
      socket.close();
    }
  });

  test("gives a command line built from one of the app's actions", async () => {
    const { body } = await send(`${server.url}/`);
    expect(blocksOf(body, "cli")).toEqual(["npx herald actions\nnpx herald notes:add --text example"]);
  });

  test("HEAD / answers the page's headers without its body", async () => {
    const page = await send(`${server.url}/`);
    const head = await send(`${server.url}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(page.body)));
  });

  test("only GET and HEAD of / itself: another method, or another path, is the usual 404", async () => {
    const post = await send(`${server.url}/`, { method: "POST" });
    expect(post.status).toBe(404);
    expect(JSON.parse(post.body).error).toMatchObject({ type: "CONNECTION_NOT_FOUND", value: "/" });
    const elsewhere = await send(`${server.url}/welcome`);
    expect(elsewhere.status).toBe(404);
    // Development keeps its detail: the stack says where the 404 was made.
    expect(JSON.parse(elsewhere.body).error).toMatchObject({ type: "CONNECTION_NOT_FOUND", value: "/welcome", stack: expect.any(String) });
  });

  test("is no action: it gets an access line as other requests outside the actions do, and no request log line", async () => {
    const { headers } = await send(`${server.url}/`);
    const requestId = headers["x-request-id"];
    const line = () => logs.lines.find((entry) => entry.requestId === requestId);
    await waitFor(() => line() !== undefined);
    expect(line()).toMatchObject({ msg: "request", method: "GET", path: "/", status: 200, level: 30 });
    expect(line()).not.toHaveProperty("action");
  });

  test("the app's own public/index.html wins as soon as it exists", async () => {
    const publicDir = join(appDir, "public");
    mkdirSync(publicDir, { recursive: true });
    writeFileSync(join(publicDir, "index.html"), "<!doctype html><h1>My own page</h1>");
    try {
      const { status, headers, body } = await send(`${server.url}/`);
      expect(status).toBe(200);
      expect(body).toBe("<!doctype html><h1>My own page</h1>");
      expect(headers["content-security-policy"]).toMatch(/script-src 'self'/);
    } finally {
      rmSync(publicDir, { recursive: true, force: true });
    }
    expect((await send(`${server.url}/`)).body).toContain("<h1>welcome-fixture</h1>");
  });
});

test("with PUBLIC_URL, the MCP and WebSocket URLs are the public ones, whatever host the request names", async () => {
  const { server } = await boot("public-url", { NODE_ENV: "development", PUBLIC_URL: "https://notes.example.com" });
  try {
    const { body } = await send(`${server.url}/`);
    expect(JSON.parse(blocksOf(body, "mcp")[0]!)).toEqual({ mcpServers: { "welcome-fixture": { url: "https://notes.example.com/mcp" } } });
    expect(shownText(body)).toContain("Open wss://notes.example.com/ws and send");
  } finally {
    await server.stop();
  }
});

describe("in production", () => {
  let server: HeraldServer;
  beforeAll(async () => {
    ({ server } = await boot("production", { NODE_ENV: "production", HOST: "127.0.0.1", SESSION_SECRET: "welcome-page-test-secret-of-32-characters" }));
  }, HOOK_TIMEOUT);
  afterAll(() => server?.stop(), HOOK_TIMEOUT);

  test("/ is a 404 error body without a stack, for GET and HEAD alike", async () => {
    const { status, headers, body } = await send(`${server.url}/`);
    expect(status).toBe(404);
    expect(headers["content-type"]).toBe("application/json; charset=utf-8");
    const { error } = JSON.parse(body);
    expect(error).toMatchObject({ type: "CONNECTION_NOT_FOUND", key: "path", value: "/" });
    expect(error).not.toHaveProperty("stack");
    expect(body).not.toContain("    at ");
    const head = await send(`${server.url}/`, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(head.body).toBe("");
  });

  test("no error body carries a stack: an unknown path, an unknown action, a wrong method, an action's own failure", async () => {
    const answers = await Promise.all([
      send(`${server.url}/nowhere.png`),
      send(`${server.url}/api/nothing`),
      send(`${server.url}/api/notes`, { method: "DELETE" }),
      send(`${server.url}/api/notes/broken`),
    ]);
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.body).error.type])).toEqual([
      [404, "CONNECTION_NOT_FOUND"],
      [404, "CONNECTION_ACTION_NOT_FOUND"],
      [405, "CONNECTION_METHOD_NOT_ALLOWED"],
      [500, "CONNECTION_ACTION_RUN"],
    ]);
    for (const { body } of answers) {
      expect(JSON.parse(body).error).not.toHaveProperty("stack");
      expect(body).not.toContain("    at ");
    }
    expect(JSON.parse(answers[3]!.body).error.message).not.toContain("on fire");
  });
});

test("the same failure in development carries its stack, so the production check above can fail", async () => {
  const { server } = await boot("development-failure", { NODE_ENV: "development" });
  try {
    const { status, body } = await send(`${server.url}/api/notes/broken`);
    expect(status).toBe(500);
    expect(JSON.parse(body).error).toMatchObject({ message: "the notebook is on fire", stack: expect.stringContaining("    at ") });
  } finally {
    await server.stop();
  }
});
