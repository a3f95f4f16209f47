import { inputRequired, type InputRequests, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import type { InputRequiredError } from "../../core/input-required";
import type { Question } from "../../core/questions";
import type { AskedStateCodec } from "./request-state";

/** One question as the embedded request the client fulfils, built by the SDK's own helpers. */
function inputRequestOf(question: Question): InputRequests[string] {
  if ("form" in question) return inputRequired.elicit({ message: question.form.message, requestedSchema: question.form.schema });
  if ("sample" in question) return inputRequired.createMessage(question.sample);
  return inputRequired.listRoots();
}

/**
 * The `input_required` result of a call whose action asked what the request did not answer: the
 * open questions, and the signed state of the answers read so far (always minted, so a retry
 * carries proof of which action asked).
 */
export async function inputRequiredResultOf(
  error: InputRequiredError,
  action: string,
  codec: AskedStateCodec,
  ctx: ServerContext,
): Promise<InputRequiredResult> {
  const inputRequests = Object.fromEntries(Object.entries(error.questions).map(([key, question]) => [key, inputRequestOf(question)]));
  const requestState = await codec.mint({ action, answers: { ...error.answered } }, ctx);
  return inputRequired({ inputRequests, requestState });
}
