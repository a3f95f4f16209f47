import { z } from "zod";

/**
 * The work every HTTP and WebSocket subject does per call, Herald and baselines alike: parse
 * this small input with zod, answer this JSON. Sharing it keeps the comparison about the stack.
 */
export const echoInputs = z.object({
  message: z.string().min(1).max(64),
  count: z.coerce.number().int().min(1).max(100).default(1),
});

export type EchoParams = z.output<typeof echoInputs>;

export function echoResponse(params: EchoParams): { echo: string; count: number; length: number } {
  return { echo: params.message, count: params.count, length: params.message.length };
}

export const ECHO_PATH = "/api/bench/echo";
export const ECHO_QUERY = "message=hello&count=3";
export const ECHO_PARAMS = { message: "hello", count: 3 };
