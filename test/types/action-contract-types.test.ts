/**
 * The compiler holds `run` to what the action declares: `tsc --noEmit` (run by `npm test` before
 * Jest) fails when a line below stops compiling, and an unused `@ts-expect-error` fails it when a
 * wrong `run` stops being refused. The Jest tests run the same classes.
 */
import { z } from "zod";
import { Action, Connection, CONNECTION_TYPE, type ActionMiddleware, type ActionParams } from "herald";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

const greetInputs = z.object({ who: z.string(), times: z.number().int().default(1) });

class Greet implements Action {
  name = "greet:say";
  inputs = greetInputs;
  web = { route: "/greet", method: "GET" };
  async run(params: ActionParams<Greet>, connection: Connection) {
    return { greeting: `Hello, ${params.who}`.repeat(params.times), over: connection.type };
  }
}

class GreetOtherParams implements Action {
  name = "greet:other";
  inputs = greetInputs;
  // @ts-expect-error run's params must be what inputs produce, not any other shape
  async run(params: { totallyDifferent: Date }) {
    return params.totallyDifferent;
  }
}

class GreetMissingParam implements Action {
  name = "greet:missing";
  inputs = greetInputs;
  // @ts-expect-error a param inputs do not produce ("whom") cannot be required
  async run(params: { who: string; whom: string }) {
    return params.whom;
  }
}

class GreetMisspelt implements Action {
  name = "greet:misspelt";
  inputs = greetInputs;
  async run(params: ActionParams<GreetMisspelt>) {
    // @ts-expect-error a misspelt param is a compile error, not undefined at run time
    return params.whom;
  }
}

class NoInputs implements Action {
  name = "system:ping";
  web = { route: "/ping", method: "post" };
  async run(_params: ActionParams<NoInputs>, connection: Connection, abortSignal: AbortSignal) {
    return { aborted: abortSignal.aborted, over: connection.type };
  }
}

interface User {
  id: number;
  name: string;
}

/** A sign-in middleware: what its runBefore hands on as updatedParams reaches run typed. */
class SignedIn implements ActionMiddleware {
  async runBefore(params: Record<string, unknown>) {
    const currentUser: User = { id: 7, name: "Ada" };
    return { updatedParams: { ...params, currentUser } };
  }
}

class WhoAmI implements Action {
  name = "user:whoami";
  inputs = z.object({ verbose: z.boolean().default(false) });
  middleware = [SignedIn];
  async run(params: ActionParams<WhoAmI>) {
    return params.verbose ? `${params.currentUser.name} (#${params.currentUser.id})` : params.currentUser.name;
  }
}

assertType<Equals<ActionParams<WhoAmI>, { verbose: boolean } & { currentUser: User }>>();
assertType<Equals<ActionParams<Greet>, { who: string; times: number }>>();
assertType<Equals<ActionParams<typeof greetInputs>, { who: string; times: number }>>();

const decoratedInputs = z.object({ n: z.number() });

@Action({ name: "math:double", inputs: decoratedInputs })
class Double {
  async run(params: ActionParams<typeof decoratedInputs>) {
    return params.n * 2;
  }
}

// @ts-expect-error with the decorator, run is checked against the decorator's inputs
@Action({ name: "math:wrong", inputs: decoratedInputs })
class DoubleWrong {
  async run(params: { totallyDifferent: Date }) {
    return params.totallyDifferent;
  }
}

@Action({ name: "user:decorated", inputs: z.object({}), middleware: [SignedIn] })
class DecoratedWhoAmI {
  async run(params: ActionParams<{ inputs: z.ZodObject<{}>; middleware: [typeof SignedIn] }>) {
    return params.currentUser.id;
  }
}

const cli = () => new Connection({ type: CONNECTION_TYPE.cli });

test("run gets the parsed inputs and the connection the types describe", async () => {
  const action = new Greet();
  expect(await action.run(await action.inputs.parseAsync({ who: "Ada", times: 2 }), cli())).toEqual({
    greeting: "Hello, AdaHello, Ada",
    over: "cli",
  });
  expect(await new NoInputs().run({}, cli(), new AbortController().signal)).toEqual({ aborted: false, over: "cli" });
});

test("what a middleware's runBefore hands on is what run reads", async () => {
  const handedOn = await new SignedIn().runBefore({ verbose: true });
  expect(await new WhoAmI().run(handedOn.updatedParams as ActionParams<WhoAmI>)).toBe("Ada (#7)");
  expect(await new DecoratedWhoAmI().run(handedOn.updatedParams as never)).toBe(7);
});

test("the decorator style runs as the members style does", async () => {
  expect(await new Double().run({ n: 21 })).toBe(42);
});

test("the refused classes are still classes Herald could load: the refusal is the compiler's", () => {
  expect([new GreetOtherParams(), new GreetMissingParam(), new GreetMisspelt()].map((action) => action.name)).toEqual([
    "greet:other",
    "greet:missing",
    "greet:misspelt",
  ]);
  expect((new DoubleWrong() as unknown as { name: string }).name).toBe("math:wrong");
});
