/**
 * connection.ask types each answer from its question: `tsc --noEmit` (run by `npm test` before
 * Jest) fails when a line below stops compiling, and an unused `@ts-expect-error` fails it when a
 * wrong use stops being refused.
 */
import { z } from "zod";
import { Connection, CONNECTION_TYPE, type CallerRoot, type SampleAnswer } from "herald";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

async function asks(connection: Connection) {
  const answers = await connection.ask({
    plan: { form: { message: "Which plan?", schema: z.object({ tier: z.enum(["free", "pro"]), seats: z.coerce.number().int() }) } },
    summary: { sample: { messages: [{ role: "user", content: { type: "text", text: "Summarize" } }], maxTokens: 50 } },
    where: { roots: true },
  });
  if (answers.plan.action === "accept") {
    assertType<Equals<typeof answers.plan.content, { tier: "free" | "pro"; seats: number }>>();
  } else {
    assertType<Equals<typeof answers.plan.action, "decline" | "cancel">>();
    // @ts-expect-error only an accepted form has content
    void answers.plan.content;
  }
  assertType<Equals<typeof answers.summary, SampleAnswer>>();
  assertType<Equals<typeof answers.where.roots, CallerRoot[]>>();
  // @ts-expect-error no answer under a key that was not asked
  void answers.other;
}

function refuses(connection: Connection) {
  // @ts-expect-error a form's schema is a zod object
  return connection.ask({ bad: { form: { message: "x", schema: z.string() } } });
}

test("the answers are typed per question (checked by tsc)", () => {
  expect([typeof asks, typeof refuses, CONNECTION_TYPE.mcp]).toEqual(["function", "function", "mcp"]);
});
