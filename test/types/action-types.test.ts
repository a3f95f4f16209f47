/**
 * Type-level checks: `tsc --noEmit` (run by CI) fails when an inference here is wrong. The Jest
 * test at the end only makes the file a suite; the checks are the assignments.
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

test("type-level checks compile", () => {
  expect(new WithInputs().name).toBe("user:create");
});
