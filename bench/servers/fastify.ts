import { fastifyBaseline } from "../shared/fastify-baseline";
import { exitOnSignal, portFromEnv } from "./listen";

/** The Fastify baseline, its log on stdout, which the runner sends to /dev/null as it does Herald's request log. */
const app = fastifyBaseline();

// Fastify's own listen rather than listenFromEnv: it finishes booting the plugins before binding.
exitOnSignal();
void app.listen({ port: portFromEnv(), host: "127.0.0.1" });
