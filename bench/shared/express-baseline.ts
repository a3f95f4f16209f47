import express, { type Express } from "express";
import { ECHO_PATH, echoInputs, echoResponse } from "./echo";
import { HELLO_PATH, helloResponse } from "./hello";
import { countRequest } from "./request-counter";

/** The raw Express 5 baseline: one global middleware, the same zod parse, the same JSON. */
export function expressBaseline(): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use((_req, res, next) => {
    res.locals.requestNumber = countRequest();
    next();
  });
  app.get(ECHO_PATH, (req, res) => {
    const parsed = echoInputs.safeParse(req.query);
    if (!parsed.success) return void res.status(422).json({ error: parsed.error.issues });
    res.json(echoResponse(parsed.data));
  });
  app.get(HELLO_PATH, (_req, res) => void res.json(helloResponse()));
  app.get("/ready", (_req, res) => void res.send("ok"));
  return app;
}
