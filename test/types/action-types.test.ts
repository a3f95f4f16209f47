/**
 * Type-level checks: `tsc --noEmit` (run by CI) fails when an inference here is wrong, and an
 * unused `@ts-expect-error` fails it when a wrong type stops being refused. The Jest tests run
 * the same actions, so the values agree with the types tsc checked.
 */
import { z } from "zod";
import { TypedError, type Action, type ActionParams, type ActionResponse } from "herald";

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

class WithInputs implements Action {
  name = "user:create";
  inputs = z.object({
    name: z.string(),
    age: z.coerce.number().optional(),
    admin: z.boolean().default(false),
    tags: z.array(z.string()),
  });
  async run(params: ActionParams<WithInputs>) {
    return { id: 1, name: params.name };
  }
}

class WithoutInputs implements Action {
  name = "system:ping";
  async run() {
    return "pong" as const;
  }
}

class WithTransform implements Action {
  name = "user:lookup";
  inputs = z.object({ id: z.string().transform((id) => Number(id)) });
  async run(params: ActionParams<WithTransform>) {
    return [params.id];
  }
}

assertType<Equals<ActionParams<WithInputs>, { name: string; age?: number | undefined; admin: boolean; tags: string[] }>>();
assertType<Equals<ActionParams<WithoutInputs>, Record<string, unknown>>>();
assertType<Equals<ActionParams<WithTransform>, { id: number }>>();

assertType<Equals<ActionResponse<WithInputs>, { id: number; name: string } & { error?: TypedError }>>();
assertType<Equals<ActionResponse<WithoutInputs>, "pong" & { error?: TypedError }>>();
assertType<Equals<ActionResponse<WithTransform>["error"], TypedError | undefined>>();

// @ts-expect-error the inferred params have no such field
assertType<Equals<ActionParams<WithInputs>, { name: string; nickname: string }>>();
// @ts-expect-error the output type of a transform is what run receives, not its input
assertType<Equals<ActionParams<WithTransform>, { id: string }>>();

test("run receives the parsed inputs the params type describes", async () => {
  const action = new WithInputs();
  const params: ActionParams<WithInputs> = await action.inputs.parseAsync({ name: "Ada", age: "36", tags: ["admin"] });
  expect(params).toEqual({ name: "Ada", age: 36, admin: false, tags: ["admin"] });
  expect(await action.run(params)).toEqual({ id: 1, name: "Ada" });
});

test("a transform's output is what run receives", async () => {
  const action = new WithTransform();
  const params: ActionParams<WithTransform> = await action.inputs.parseAsync({ id: "7" });
  expect(await action.run(params)).toEqual([7]);
});

test("an action without inputs answers its literal response", async () => {
  expect(await new WithoutInputs().run()).toBe("pong");
});
