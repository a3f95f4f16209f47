/**
 * `ActionErrors<A>` is the union of the errors a call of the action may end with, narrowed by
 * `type`: its own `errors`, its middleware's, and Herald's. `tsc --noEmit` fails when a line below
 * stops compiling, and an unused `@ts-expect-error` fails it when a wrong use stops being refused.
 * The Jest test shows the same set at run time.
 */
import { z } from "zod";
import { Action, ErrorType, rateLimit, type ActionErrors, type ActionMiddleware } from "herald";
import { declaredErrors } from "../../src/core/declared-errors";

class RequireToken implements ActionMiddleware {
  readonly errors = { CONNECTION_NOT_AUTHENTICATED: true };
  async runBefore() {}
}

const Limited = rateLimit({ limit: 5, windowMs: 60_000 });

class ConnectionView implements Action {
  name = "connection:view";
  inputs = z.object({ id: z.coerce.number() });
  errors = { CONNECTION_NOT_FOUND: z.object({ id: z.number() }), CONNECTION_CONFLICT: true };
  middleware = [RequireToken, Limited];
  async run(params: { id: number }) {
    return { id: params.id };
  }
}

function describeError(error: ActionErrors<ConnectionView>): string {
  switch (error.type) {
    case ErrorType.CONNECTION_NOT_FOUND:
      // Narrowed by type: the declared schema's output.
      return `no connection ${error.value.id}`;
    case ErrorType.CONNECTION_RATE_LIMITED:
      // rateLimit()'s value, or the concurrent-call bound's: both carry retryAfter.
      return `retry in ${error.value.retryAfter} s`;
    case ErrorType.CONNECTION_SERVICE_BUSY:
      return `busy, retry in ${error.value.retryAfter} s`;
    case ErrorType.CONNECTION_CONFLICT:
    case ErrorType.CONNECTION_NOT_AUTHENTICATED:
    case ErrorType.CONNECTION_ACTION_PARAM_VALIDATION:
      return error.type;
    default:
      return "other";
  }
}

// @ts-expect-error the action declares no CONNECTION_FORBIDDEN, nor does its middleware
const forbidden: ActionErrors<ConnectionView> = { type: ErrorType.CONNECTION_FORBIDDEN };

// @ts-expect-error a declared value schema is held to: id is a number
const wrongValue: ActionErrors<ConnectionView> = { type: ErrorType.CONNECTION_NOT_FOUND, value: { id: "1" } };

const conflict: ActionErrors<ConnectionView> = { type: ErrorType.CONNECTION_CONFLICT };

class Misspelt implements Action {
  name = "connection:misspelt";
  // @ts-expect-error no ErrorType is named CONNECTION_CONFLICTS
  errors = { CONNECTION_CONFLICTS: true };
  async run() {
    return {};
  }
}

class Plain implements Action {
  name = "connection:plain";
  async run() {
    return {};
  }
}

// @ts-expect-error an action that declares nothing ends only with Herald's errors
const undeclared: ActionErrors<Plain> = { type: ErrorType.CONNECTION_NOT_FOUND };

const options = {
  name: "connection:remove",
  inputs: z.object({ id: z.coerce.number() }),
  errors: { CONNECTION_NOT_FOUND: z.object({ id: z.number() }) },
};

@Action(options)
class ConnectionRemove {
  async run(params: { id: number }) {
    return { removed: params.id };
  }
}

function removedMissing(error: ActionErrors<typeof options>): number | undefined {
  return error.type === ErrorType.CONNECTION_NOT_FOUND ? error.value.id : undefined;
}

test("the types' set and the run-time set agree on what an action declares", () => {
  const action = new ConnectionView();
  const declared = declaredErrors(action, { middleware: [new RequireToken()], timeoutApplies: true });
  expect([...declared.keys()]).toEqual(expect.arrayContaining([ErrorType.CONNECTION_NOT_FOUND, ErrorType.CONNECTION_CONFLICT, ErrorType.CONNECTION_NOT_AUTHENTICATED]));
  expect(declared.has(ErrorType.CONNECTION_FORBIDDEN)).toBe(false);
  expect(describeError({ type: ErrorType.CONNECTION_NOT_FOUND, value: { id: 3 } })).toBe("no connection 3");
  expect(removedMissing({ type: ErrorType.CONNECTION_NOT_FOUND, value: { id: 4 } })).toBe(4);
  expect([forbidden, wrongValue, conflict, undeclared, Misspelt, ConnectionRemove]).toHaveLength(6);
});
