/**
 * herald/client typed by the sample app's generated module (`sample-app/herald-client.d.ts`):
 * `tsc --noEmit` fails when a line below stops compiling, and an unused `@ts-expect-error` fails it
 * when a wrong use stops being refused. Nothing here is sent: the calls are only type-checked.
 */
import { createClient } from "herald/client";
import type { AppActions, AppChannels } from "../../sample-app/herald-client";

const client = createClient<AppActions>({ url: "http://127.0.0.1:8080" });

/** The sample app's actions, with one served over HTTP only and one streaming, as the generator writes them. */
type MoreActions = AppActions & {
  "report:export": { params: { year: number }; outputs: { url: string }; errors: never; transports: "web"; http: { method: "POST"; route: "/report" } };
  "ticks:count": { params: { count?: number }; outputs: { tick: number }; errors: never; transports: "web" | "websocket"; streaming: true };
};
const more = createClient<MoreActions>({ url: "http://127.0.0.1:8080" });

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

async function rightSocketUses(): Promise<string[]> {
  const socket = client.socket({ path: "/ws", reconnect: { initialDelayMs: 50, maxDelayMs: 1000 } });
  await socket.opened();
  const { user } = await socket.call("user:create", { name: "Ada", email: "ada@example.com", password: "analytical engine" });
  const id: number = user.id;
  const page = await socket.call("messages:list", {}, { signal: AbortSignal.timeout(1000) });
  const total: number = page.pagination.total;
  // A channel's messages are what the caller says they are; presence and events are typed.
  const unsubscribe = await socket.subscribe<{ body: string }>("messages", (message) => console.log(message.body.length));
  await unsubscribe();
  socket.onPresence("room:1", (event: "join" | "leave", key: string) => console.log(event, key));
  socket.on("close", (code: number, reason: string) => console.log(code, reason));
  socket.on("reconnecting", (attempt: number, delayMs: number) => console.log(attempt, delayMs));
  socket.on("error", (error) => console.log(client.errorOf("user:create", error)?.type));

  // With AppChannels, a channel it lists has its messages typed by the channel's schema.
  const typed = createClient<AppActions, AppChannels>({ url: "" }).socket();
  await typed.subscribe("messages", (message) => console.log(message.body.length, message.user_name?.length, message.id + 1));
  // An app with a channel family named by a RegExp: its AppChannels is open to any name.
  const open = createClient<AppActions, AppChannels & { [channel: string]: { message: unknown; presence: boolean } }>({ url: "" }).socket();
  await open.subscribe<{ text: string }>("room:1", (message) => console.log(message.text.length));
  await open.subscribe("room:1", (message: unknown) => console.log(message));

  const moreSocket = more.socket();
  let ticks = 0;
  for await (const value of moreSocket.stream("ticks:count", { count: 3 })) ticks += value.tick;
  // Called rather than streamed, a streaming action answers null.
  const answer: null = await moreSocket.call("ticks:count");
  const report = await more.call("report:export", { year: 2025 });
  return [String(id), String(total), String(ticks), String(answer), report.url];
}

async function wrongSocketUses(): Promise<void> {
  const socket = client.socket();
  // @ts-expect-error a param of the wrong type
  await socket.call("messages:list", { limit: "5" });
  // @ts-expect-error user:create takes params: they cannot be left out
  await socket.call("user:create");
  // @ts-expect-error no such action
  await socket.call("user:delete", {});
  // @ts-expect-error messages:cleanup is served by tasks and the CLI only
  await socket.call("messages:cleanup", {});
  // @ts-expect-error report:export is served over HTTP only, not over WebSocket
  await more.socket().call("report:export", { year: 2025 });
  // @ts-expect-error user:create does not stream
  more.socket().stream("user:create", { name: "Ada", email: "ada@example.com", password: "analytical engine" });
  // @ts-expect-error a call option the socket does not take: headers go with the upgrade only
  await socket.call("status", {}, { headers: { "x-request-id": "1" } });
  // @ts-expect-error a channel message is unknown without a type argument
  await socket.subscribe("messages", (message) => message.body);
  // @ts-expect-error the messages channel's rows have no title
  await createClient<AppActions, AppChannels>({ url: "" }).socket().subscribe("messages", (message) => message.title);
  // @ts-expect-error the sample app has no channel of that name, nor any family
  await createClient<AppActions, AppChannels>({ url: "" }).socket().subscribe("mesages", () => undefined);
  // @ts-expect-error nor does a type argument make one up
  await createClient<AppActions, AppChannels>({ url: "" }).socket().subscribe<{ text: string }>("room:1", (message) => message.text);
  // @ts-expect-error no such event
  socket.on("message", () => undefined);
  // @ts-expect-error presence events are join and leave
  socket.onPresence("room:1", (event) => event === "update");
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
  expect(typeof rightSocketUses).toBe("function");
  expect(typeof wrongSocketUses).toBe("function");
  expect(describeError(new Error("plain"))).toBe("not a user:create error");
  expect(statusOfConflict(new Error("plain"))).toBeUndefined();
});
