import Fastify, { type FastifyInstance } from "fastify";
import { ECHO_PATH, echoInputs, echoResponse } from "./echo";
import { HELLO_PATH, helloResponse } from "./hello";
import { countRequest } from "./request-counter";

/**
 * The Fastify 5 baseline: one onRequest hook (the other baselines' one global middleware), the
 * same zod parse, the same JSON, and its logger as Fastify ships it: level info, a JSON line per
 * request received and per response sent, on stdout. No response schema: the reply goes through
 * JSON.stringify like the others', not fast-json-stringify (fastify/benchmarks gives its hello
 * route one).
 */
export function fastifyBaseline(): FastifyInstance {
  const app = Fastify({ logger: { level: "info" } });

  // Callback style, not async: no promise per request, as Express's next() has none.
  app.addHook("onRequest", (_request, _reply, done) => {
    countRequest();
    done();
  });

  app.get(ECHO_PATH, (request, reply) => {
    const parsed = echoInputs.safeParse(request.query);
    if (!parsed.success) return void reply.code(422).send({ error: parsed.error.issues });
    void reply.send(echoResponse(parsed.data));
  });

  app.get(HELLO_PATH, (_request, reply) => void reply.send(helloResponse()));

  app.get("/ready", (_request, reply) => void reply.send("ok"));
  return app;
}
