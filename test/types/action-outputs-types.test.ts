/**
 * The compiler holds what `run` returns to the action's `outputs`, in both styles: `tsc --noEmit`
 * (run by `npm test` before Jest) fails when a line below stops compiling, and an unused
 * `@ts-expect-error` fails it when a wrong `run` stops being refused. The Jest tests show that the
 * run-time check outside production draws the same line.
 */
import { z } from "zod";
import { Action, type ActionParams } from "herald";
import { outputMismatch } from "../../src/core/output-check";

const note = z.object({ id: z.number().int(), text: z.string(), at: z.date() });

class NoteView implements Action {
  name = "note:view";
  inputs = z.object({ id: z.coerce.number() });
  outputs = z.object({ note });
  async run(params: ActionParams<NoteView>) {
    return { note: { id: params.id, text: "hello", at: new Date(0) } };
  }
}

class NoteWrongType implements Action {
  name = "note:wrong-type";
  // @ts-expect-error run returns an id as text where outputs say number
  outputs = z.object({ note });
  async run() {
    return { note: { id: "1", text: "hello", at: new Date(0) } };
  }
}

class NoteMissingField implements Action {
  name = "note:missing";
  // @ts-expect-error run leaves out a field outputs require (at)
  outputs = z.object({ note });
  async run() {
    return { note: { id: 1, text: "hello" } };
  }
}

class NoteFeed implements Action {
  name = "note:feed";
  outputs = note;
  async *run() {
    yield { id: 1, text: "first", at: new Date(0) };
  }
}

class NoteFeedWrong implements Action {
  name = "note:feed-wrong";
  // @ts-expect-error each value an async *run yields is held to outputs
  outputs = note;
  async *run() {
    yield { id: 1, text: 2, at: new Date(0) };
  }
}

/** Without outputs, run may return anything: nothing to hold it to. */
class Untyped implements Action {
  name = "untyped";
  async run() {
    return { anything: [1, "two"] };
  }
}

@Action({ name: "math:half", inputs: z.object({ n: z.number() }), outputs: z.object({ half: z.number() }) })
class Half {
  async run(params: { n: number }) {
    return { half: params.n / 2 };
  }
}

// @ts-expect-error the decorator holds run's return to its outputs as well
@Action({ name: "math:half-wrong", inputs: z.object({ n: z.number() }), outputs: z.object({ half: z.number() }) })
class HalfWrong {
  async run(params: { n: number }) {
    return { half: `${params.n / 2}` };
  }
}

test("what the compiler lets run return, the run-time check lets through", async () => {
  const view = new NoteView();
  expect(outputMismatch(view.name, view.outputs, await view.run({ id: 3 }))).toBeUndefined();
  const half = new Half();
  expect(outputMismatch("math:half", z.object({ half: z.number() }), await half.run({ n: 3 }))).toBeUndefined();
  const feed = new NoteFeed();
  for await (const value of feed.run()) expect(outputMismatch(feed.name, feed.outputs, value)).toBeUndefined();
  expect(await new Untyped().run()).toEqual({ anything: [1, "two"] });
});

test("what the compiler refuses, the run-time check refuses too, naming the first wrong field", async () => {
  const wrongType = new NoteWrongType();
  expect((outputMismatch(wrongType.name, wrongType.outputs, await wrongType.run()) as Error).message).toBe(
    'Action "note:wrong-type" returned a response its outputs do not describe, at note.id: Invalid input: expected number, received string',
  );
  const missing = new NoteMissingField();
  expect((outputMismatch(missing.name, missing.outputs, await missing.run()) as Error).message).toMatch(/at note\.at: /);
  const feed = new NoteFeedWrong();
  for await (const value of feed.run()) expect((outputMismatch(feed.name, feed.outputs, value) as Error).message).toMatch(/at text: /);
  expect((outputMismatch("math:half-wrong", z.object({ half: z.number() }), await new HalfWrong().run({ n: 3 })) as Error).message).toMatch(/at half: /);
});
