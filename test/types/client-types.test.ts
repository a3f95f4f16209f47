/**
 * herald/client typed by the sample app's generated module (`sample-app/herald-client.d.ts`):
 * `tsc --noEmit` fails when a line below stops compiling, and an unused `@ts-expect-error` fails it
 * when a wrong use stops being refused. Nothing here is sent: the calls are only type-checked.
 */
import { createClient } from "herald/client";
import type { AppActions } from "../../sample-app/herald-client";

const client = createClient<AppActions>({ url: "http://127.0.0.1:8080" });

async function rightUses(): Promise<string[]> {
  const { user } = await client.call("user:create", { name: "Ada", email: "ada@example.com", password: "analytical engine" });
  const id: number = user.id;
  // A param with a default may be left out, and an action whose params are all optional takes none.
  const page = await client.call("messages:list", { limit: 5 });
  const all = await client.call("messages:list");
  const total: number = page.pagination.total + all.pagination.total;
  const status = await client.call("status", {}, { signal: AbortSignal.timeout(1000) });
  return [String(id), String(total), String(status)];
}

async function wrongUses(): Promise<void> {
  // @ts-expect-error a required param is missing
  await client.call("user:create", { name: "Ada", email: "ada@example.com" });
  // @ts-expect-error a param of the wrong type
  await client.call("messages:list", { limit: "5" });
  // @ts-expect-error a param the action does not take
  await client.call("session:create", { email: "ada@example.com", password: "x", remember: true });
  // @ts-expect-error no such action
  await client.call("user:delete", {});
  // @ts-expect-error messages:cleanup is served by tasks and the CLI only, not over HTTP
  await client.call("messages:cleanup", {});
  // @ts-expect-error user:create takes params: they cannot be left out
  await client.call("user:create");

  const { user } = await client.call("user:create", { name: "Ada", email: "ada@example.com", password: "analytical engine" });
  // @ts-expect-error the response has no password, and id is a number
  const wrongUse: string = user.password ?? user.id;
  void wrongUse;
}

function describeError(error: unknown): string {
  const typed = client.errorOf("user:create", error);
  if (!typed) return "not a user:create error";
  switch (typed.type) {
    case "CONNECTION_CONFLICT":
      return `taken: ${typed.key}`;
    case "CONNECTION_RATE_LIMITED": {
      // Narrowed with its type: the declared value schema, as JSON.
      const seconds: number = typed.value.retryAfter;
      return `retry in ${seconds} s`;
    }
    case "CONNECTION_ACTION_PARAM_VALIDATION":
      return typed.issues?.map((issue) => issue.message).join(", ") ?? typed.message;
    // @ts-expect-error user:create declares no CONNECTION_FORBIDDEN
    case "CONNECTION_FORBIDDEN":
      return "forbidden";
    default:
      return typed.type;
  }
}

function statusOfConflict(error: unknown): 409 | undefined {
  const typed = client.errorOf("user:create", error);
  // The status narrows with the type.
  return typed?.type === "CONNECTION_CONFLICT" ? typed.status : undefined;
}

test("the type-level uses above compile (tsc --noEmit checks them); at run time errorOf sees only a call's errors", () => {
  expect(typeof rightUses).toBe("function");
  expect(typeof wrongUses).toBe("function");
  expect(describeError(new Error("plain"))).toBe("not a user:create error");
  expect(statusOfConflict(new Error("plain"))).toBeUndefined();
});
