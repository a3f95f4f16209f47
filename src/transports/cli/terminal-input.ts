import { basename } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import type { CallerInput } from "../../core/caller-input";
import type { FormQuestion, Question, RawAnswer } from "../../core/questions";

interface Field {
  name: string;
  label: string;
  type: string | undefined;
  choices: string[] | undefined;
  required: boolean;
}

/** The form's fields as the user fills them in, from the input side of its schema. */
function fieldsOf(question: FormQuestion): Field[] {
  const json = z.toJSONSchema(question.form.schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: string; enum?: unknown[]; description?: string; title?: string }>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    label: property.description ?? property.title ?? name,
    type: property.type,
    choices: property.enum?.map(String),
    required: json.required?.includes(name) ?? false,
  }));
}

/** A typed line as the field's JSON type reads it; the schema then has the last word. */
function valueOf(field: Field, line: string): unknown {
  if (field.type === "number" || field.type === "integer") return line.trim() === "" ? line : Number(line);
  if (field.type === "boolean") return /^(y|yes|true|1)$/i.test(line.trim()) ? true : /^(n|no|false|0)$/i.test(line.trim()) ? false : line;
  return line;
}

function hintOf(field: Field): string {
  if (field.choices) return ` (${field.choices.join("/")})`;
  if (field.type === "boolean") return " (y/n)";
  return field.required ? "" : " (optional)";
}

/** One line typed at the terminal; undefined once the input has ended (Ctrl-D). */
function readLine(lines: Interface, prompt: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const ended = () => resolve(undefined);
    lines.once("close", ended);
    lines.question(prompt, (answer) => {
      lines.off("close", ended);
      resolve(answer);
    });
  });
}

/** Fills the form in field by field until its schema accepts it; the end of the input cancels it. */
async function fillIn(question: FormQuestion, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<RawAnswer> {
  const lines = createInterface({ input, output, terminal: true });
  try {
    output.write(`${question.form.message}\n`);
    for (;;) {
      const content: Record<string, unknown> = {};
      for (const field of fieldsOf(question)) {
        const line = await readLine(lines, `  ${field.label}${hintOf(field)}: `);
        if (line === undefined) {
          // The prompt's line stays open after Ctrl-D: what the command prints next starts on its own.
          output.write("\n");
          return { action: "cancel" };
        }
        if (line !== "" || field.required) content[field.name] = valueOf(field, line);
      }
      const checked = await question.form.schema.safeParseAsync(content);
      if (checked.success) return { action: "accept", content };
      for (const issue of checked.error.issues) output.write(`  ! ${issue.path.join(".") || "form"}: ${issue.message}\n`);
    }
  } finally {
    lines.close();
  }
}

/**
 * What a command run at a terminal can answer: a form, filled in field by field on stderr (stdout
 * carries only the command's JSON), and its roots, the working directory. No model to sample;
 * nothing is asked twice, since the command does not run again.
 */
export function terminalInput(terminal: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } | undefined, cwd: string): CallerInput {
  return {
    retries: false,
    canAnswer: (kind) => kind === "roots" || (kind === "form" && terminal !== undefined),
    answerOf: async (_key, question: Question) => {
      if ("roots" in question) return { roots: [{ uri: pathToFileURL(cwd).href, name: basename(cwd) }] };
      if ("form" in question && terminal) return fillIn(question, terminal.input, terminal.output);
      return undefined;
    },
  };
}
