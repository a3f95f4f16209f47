import { InputRequiredError } from "./input-required";
import { kindOf, type Answers, type Question, type QuestionKind, type Questions, type RawAnswer } from "./questions";

/**
 * Where a transport that can ask its caller for input gives `connection.ask` the answers: those a
 * retried MCP 2026-07-28 request came with, or what a person types at a terminal. A connection
 * without one cannot ask: `ask` refuses at once.
 */
export interface CallerInput {
  /**
   * Whether the caller, told the questions left open, answers them and calls again (MCP
   * 2026-07-28). Where it does not (a terminal), a question it cannot answer refuses the call.
   */
  readonly retries: boolean;
  /** Whether the caller can answer this kind of question (over MCP: declared the capability). */
  canAnswer(kind: QuestionKind): boolean;
  /** The caller's answer under `key`, if it gave one of the kind the question needs. */
  answerOf(key: string, question: Question): RawAnswer | undefined | Promise<RawAnswer | undefined>;
}

/** The answer to `question`, or undefined when there is none: a form's accepted content must pass its schema. */
async function checked(question: Question, answer: RawAnswer | undefined): Promise<unknown> {
  if (!answer || !("form" in question) || !("action" in answer) || answer.action !== "accept") return answer;
  const parsed = await question.form.schema.safeParseAsync(answer.content);
  // Content the schema refuses is asked for again, as if none had come.
  return parsed.success ? { action: "accept", content: parsed.data } : undefined;
}

/**
 * Resolves every question from the caller's answers, or ends the call with the ones missing.
 * `answered` collects what this call has read so far, for the retry that brings the rest.
 */
export async function askCaller<const Q extends Questions>(
  input: CallerInput | undefined,
  questions: Q,
  answered: Record<string, RawAnswer>,
  unanswerable: string,
): Promise<Answers<Q>> {
  if (!input) throw new InputRequiredError(questions, answered, unanswerable);
  if (!input.retries) {
    // Refused before anything is asked: a form filled in for nothing would be wasted.
    const beyond = Object.entries(questions).filter(([, question]) => !input.canAnswer(kindOf(question)));
    if (beyond.length > 0) throw new InputRequiredError(Object.fromEntries(beyond), answered, unanswerable);
  }
  const answers: Record<string, unknown> = {};
  const missing: Questions = {};
  for (const [key, question] of Object.entries(questions)) {
    const raw = await input.answerOf(key, question);
    const answer = await checked(question, raw);
    if (answer === undefined) missing[key] = question;
    else {
      answers[key] = answer;
      answered[key] = raw!;
    }
  }
  if (Object.keys(missing).length > 0) throw new InputRequiredError(missing, answered, input.retries ? undefined : unanswerable);
  return answers as Answers<Q>;
}
