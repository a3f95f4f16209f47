import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { ECHO_PATH, echoInputs, echoResponse } from "../shared/echo";
import { HELLO_PATH, helloResponse } from "../shared/hello";
import { countRequest } from "../shared/request-counter";
import { listenFromEnv } from "./listen";

/**
 * The Hono 4 baseline on `@hono/node-server`: one global middleware, the same zod parse, the same
 * JSON (`c.json`, JSON.stringify). No logger: Hono logs nothing by default, and its request logger
 * (`hono/logger`) is a middleware one adds, plain text lines through console.log with no level, so
 * it runs without one, as the Express and NestJS baselines do.
 */
const app = new Hono();

// Hono's middleware is async only: `next()` returns a promise.
app.use(async (_context, next) => {
  countRequest();
  await next();
});

app.get(ECHO_PATH, (context) => {
  const parsed = echoInputs.safeParse(context.req.query());
  if (!parsed.success) return context.json({ error: parsed.error.issues }, 422);
  return context.json(echoResponse(parsed.data));
});

app.get(HELLO_PATH, (context) => context.json(helloResponse()));

app.get("/ready", (context) => context.text("ok"));

// What @hono/node-server's serve() builds (its request listener on node:http, its defaults),
// without listening, so that it listens as the other baselines do.
listenFromEnv(createServer(getRequestListener(app.fetch)));
