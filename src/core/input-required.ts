import { ErrorType, TypedError } from "./errors";
import type { Questions, RawAnswer } from "./questions";

/**
 * How a call ends when its action asked its caller something the call did not bring the answer
 * to (`connection.ask`). It is no failure: over MCP 2026-07-28 it becomes an `input_required`
 * result the client answers and retries; a transport that cannot ask sends it as a 422 naming the
 * keys.
 */
export class InputRequiredError extends TypedError {
  /** The questions still unanswered, by key. */
  readonly questions: Questions;
  /** The answers the call had read before it stopped, as the caller sent them: a retry must not ask them again. */
  readonly answered: Readonly<Record<string, RawAnswer>>;
  /** False where the transport cannot ask its caller at all: the error is then the answer, a 422. */
  readonly askable: boolean;

  constructor(questions: Questions, answered: Readonly<Record<string, RawAnswer>>, unanswerable?: string) {
    const keys = Object.keys(questions);
    super({
      message: unanswerable
        ? `The action needs input its caller cannot give ${unanswerable}: ${keys.join(", ")}`
        : `The action needs input from its caller: ${keys.join(", ")}`,
      type: ErrorType.CONNECTION_INPUT_REQUIRED,
      key: "input",
      value: { keys },
    });
    this.name = "InputRequiredError";
    this.questions = questions;
    this.answered = answered;
    this.askable = unanswerable === undefined;
  }
}

export function isInputRequired(error: unknown): error is InputRequiredError {
  return error instanceof InputRequiredError;
}
