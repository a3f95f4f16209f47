import type { z } from "zod";

/**
 * What an action may ask its caller in the middle of a call (`connection.ask`), in MCP's terms
 * since MCP is the transport that can carry them: a form the user fills in (elicitation), a
 * completion from the caller's model (sampling), or the caller's roots.
 */
export interface FormQuestion<S extends z.ZodObject = z.ZodObject> {
  form: {
    message: string;
    /** Flat fields of strings, numbers, booleans and enums: what an MCP client can render as a form. */
    schema: S;
  };
}

/** A text, image or audio block of a sampling message. */
export type SamplingContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string };

export interface SamplingMessage {
  role: "user" | "assistant";
  content: SamplingContent;
}

export interface SampleQuestion {
  sample: {
    messages: SamplingMessage[];
    maxTokens: number;
    systemPrompt?: string;
    temperature?: number;
    stopSequences?: string[];
    modelPreferences?: {
      hints?: { name?: string }[];
      costPriority?: number;
      speedPriority?: number;
      intelligencePriority?: number;
    };
  };
}

export interface RootsQuestion {
  roots: true;
}

export type Question = FormQuestion<z.ZodObject> | SampleQuestion | RootsQuestion;

export type QuestionKind = "form" | "sample" | "roots";

/** Questions by key: the caller answers each under the same key. */
export type Questions = Record<string, Question>;

/** A form's answer: the content checked against the question's schema, or the user's refusal. */
export type FormAnswer<S extends z.ZodObject = z.ZodObject> =
  | { action: "accept"; content: z.output<S> }
  | { action: "decline" }
  | { action: "cancel" };

export interface SampleAnswer {
  role: "user" | "assistant";
  content: SamplingContent;
  model: string;
  stopReason?: string;
}

export interface CallerRoot {
  uri: string;
  name?: string;
}

export interface RootsAnswer {
  roots: CallerRoot[];
}

export type AnswerTo<Q extends Question> = Q extends FormQuestion<infer S>
  ? FormAnswer<S>
  : Q extends SampleQuestion
    ? SampleAnswer
    : Q extends RootsQuestion
      ? RootsAnswer
      : never;

/** One answer per key, typed by its question. */
export type Answers<Q extends Questions> = { [K in keyof Q]: AnswerTo<Q[K]> };

/** An answer as the caller sent it: a form's content is not yet checked against its schema. */
export type RawAnswer = { action: "accept"; content: Record<string, unknown> } | { action: "decline" } | { action: "cancel" } | SampleAnswer | RootsAnswer;

export function kindOf(question: Question): QuestionKind {
  if ("form" in question) return "form";
  if ("sample" in question) return "sample";
  return "roots";
}
