import { createClient, HeraldClientError, type HeraldSocket } from "herald/client";
import { serverUrl, useTestServer, waitFor } from "herald/testing";
import { HTTP_APP } from "../transports/http/fixture";
import { Gate } from "../fixtures/apps/http-app/services/gate";
import { journal } from "../fixtures/apps/http-app/services/journal";

/** Streaming actions read value by value over the socket, against the streaming actions of the HTTP test app. */
const gate = new Gate();
// The failing stream is logged as a failure; that log is not what these tests read.
useTestServer({ appDir: HTTP_APP, env: { LOG_LEVEL: "fatal" }, providers: [{ token: Gate, useValue: gate }] });

type Errors = { type: "CONNECTION_SERVICE_UNAVAILABLE"; status: 503 } | { type: "CONNECTION_ACTION_PARAM_VALIDATION"; status: 422 };
type Streaming<P extends object> = { params: P; outputs: { tick: number }; errors: Errors; transports: "web" | "websocket"; streaming: true };

/** The app's streaming actions, written as `herald generate client-types` would write them. */
interface TickActions {
  "ticks:count": Streaming<{ count?: number }>;
  "ticks:broken": Streaming<Record<string, never>>;
  "stream:gated": Streaming<Record<string, never>>;
  "stream:held": Streaming<{ id: string }>;
}

let socket: HeraldSocket<TickActions>;
beforeEach(async () => {
  socket = createClient<TickActions>({ url: serverUrl() }).socket();
  await socket.opened();
});
afterEach(() => socket.close());

async function read<T>(values: AsyncIterable<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const value of values) read.push(value);
  return read;
}

test("a stream gives each value the action yields, in order, and ends with its answer", async () => {
  expect(await read(socket.stream("ticks:count", { count: 3 }))).toEqual([{ tick: 1 }, { tick: 2 }, { tick: 3 }]);
  expect(await read(socket.stream("ticks:count", { count: 0 }))).toEqual([]);
  // Called, a streaming action answers null once its values ran out.
  expect(await socket.call("ticks:count", { count: 2 })).toBeNull();
});

test("a value is read as it comes, before the action has finished", async () => {
  const values = socket.stream("stream:gated")[Symbol.asyncIterator]();
  expect(await values.next()).toEqual({ done: false, value: { tick: 1 } });
  expect(gate.entered).toBe(1);
  gate.release();
  expect(await values.next()).toEqual({ done: false, value: { tick: 2 } });
  expect(await values.next()).toEqual({ done: true, value: undefined });
});

test("a stream that fails throws its HeraldClientError after the values sent before", async () => {
  const read: unknown[] = [];
  const failure = await (async () => {
    for await (const value of socket.stream("ticks:broken")) read.push(value);
  })().catch((error: unknown) => error);
  expect(read).toEqual([{ tick: 1 }]);
  expect(failure).toBeInstanceOf(HeraldClientError);
  expect(failure).toMatchObject({ action: "ticks:broken", type: "CONNECTION_SERVICE_UNAVAILABLE", status: 503, message: "The feed went away" });
});

test("aborting a stream throws the signal's reason; a reader that stops early leaves the socket working", async () => {
  const controller = new AbortController();
  const values = socket.stream("stream:held", { id: "client-abort" }, { signal: controller.signal })[Symbol.asyncIterator]();
  expect(await values.next()).toEqual({ done: false, value: { tick: 1 } });
  controller.abort(new Error("enough"));
  await expect(values.next()).rejects.toThrow("enough");

  for await (const value of socket.stream("stream:held", { id: "client-break" })) {
    expect(value).toEqual({ tick: 1 });
    break;
  }
  expect(await read(socket.stream("ticks:count", { count: 1 }))).toEqual([{ tick: 1 }]);

  // No message ends one call: the server's streams run until the socket closes.
  socket.close();
  await waitFor(() => journal.of("client-abort").includes("body closed") && journal.of("client-break").includes("body closed"));
});
