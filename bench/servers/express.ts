import { createServer } from "node:http";
import express from "express";
import { echoInputs, echoResponse } from "../shared/echo";
import { countRequest } from "../shared/request-counter";
import { listenFromEnv } from "./listen";

/** The raw Express 5 baseline: one global middleware, the same zod parse, the same JSON. */
const app = express();
app.disable("x-powered-by");
app.use((_req, res, next) => {
  res.locals.requestNumber = countRequest();
  next();
});
app.get("/api/bench/echo", (req, res) => {
  const parsed = echoInputs.safeParse(req.query);
  if (!parsed.success) return void res.status(422).json({ error: parsed.error.issues });
  res.json(echoResponse(parsed.data));
});
app.get("/ready", (_req, res) => void res.send("ok"));

listenFromEnv(createServer(app));
