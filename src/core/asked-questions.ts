import { z } from "zod";
import { kindOf, type QuestionKind, type Questions, type RawAnswer, type RootsQuestion, type SampleQuestion } from "./questions";

/**
 * A question as JSON, to leave the process that asked it with its job (an MCP task's questions):
 * a form's schema as the JSON Schema of its input, the rest as they are.
 */
export type AskedQuestion = { form: { message: string; schema: Record<string, unknown> } } | SampleQuestion | RootsQuestion;

/** What a job may ask its caller (an MCP task's): the kinds the caller can answer, and its answers so far. */
export interface JobInput {
  kinds: QuestionKind[];
  answers: Record<string, RawAnswer>;
}

export function askedQuestions(questions: Questions): Record<string, AskedQuestion> {
  return Object.fromEntries(
    Object.entries(questions).map(([key, question]): [string, AskedQuestion] => {
      if (!("form" in question)) return [key, question];
      const { $schema: _dialect, ...schema } = z.toJSONSchema(question.form.schema, { io: "input" }) as Record<string, unknown>;
      return [key, { form: { message: question.form.message, schema } }];
    }),
  );
}

export function askedKindOf(question: AskedQuestion): QuestionKind {
  return kindOf(question as Parameters<typeof kindOf>[0]);
}
