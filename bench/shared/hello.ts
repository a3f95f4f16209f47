/**
 * The work of the hello scenario, the shape fastify/benchmarks publishes: no params, no
 * validation, this JSON out. Every subject answers it on the same path.
 */
export function helloResponse(): { hello: string } {
  return { hello: "world" };
}

export const HELLO_PATH = "/api/bench/hello";
