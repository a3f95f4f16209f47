import { CLIENT_CAPABILITIES_META_KEY, inputResponse, type ClientCapabilities, type ServerContext } from "@modelcontextprotocol/server";
import type { CallerInput } from "../../core/caller-input";
import { kindOf, type QuestionKind, type RawAnswer, type SampleAnswer } from "../../core/questions";

/** The client capability each kind of question needs. */
const CAPABILITY: Record<QuestionKind, keyof ClientCapabilities> = { form: "elicitation", sample: "sampling", roots: "roots" };

/** The SDK's view of one input response, as the answer the question's kind reads. */
export function answerIn(responses: Record<string, unknown> | undefined, key: string, kind: QuestionKind): RawAnswer | undefined {
  const view = inputResponse(responses, key);
  if (kind === "form" && view.kind === "elicit") {
    return view.action === "accept" ? { action: "accept", content: view.content ?? {} } : { action: view.action };
  }
  if (kind === "sample" && view.kind === "sampling") {
    const { role, content, model, stopReason } = view.result;
    return { role, content, model, ...(stopReason ? { stopReason } : {}) } as SampleAnswer;
  }
  if (kind === "roots" && view.kind === "roots") return { roots: view.roots.map(({ uri, name }) => (name === undefined ? { uri } : { uri, name })) };
  return undefined;
}

/**
 * The answers a 2026-07-28 request brings to its action's questions: the retried request's input
 * responses, else those of earlier rounds its verified state carries; and the capabilities its
 * `_meta` declares.
 */
export function callerInputOf(ctx: ServerContext, earlier: Record<string, RawAnswer>): CallerInput {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities;
  const responses = ctx.mcpReq.inputResponses;
  return {
    retries: true,
    canAnswer: (kind) => declared[CAPABILITY[kind]] !== undefined,
    answerOf: (key, question) => answerIn(responses, key, kindOf(question)) ?? answerIn(earlier, key, kindOf(question)),
  };
}
