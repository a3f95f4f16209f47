import type { ServerResponse } from "node:http";
import { PARSE_BYTES_PER_TURN, ParseQueue } from "../../../src/transports/http/parse-queue";

/** The queue's bookkeeping, without a server: which bodies are parsed at once, which wait, and what timers it asks for. */
const response = () => ({ headersSent: false, setHeader: jest.fn() }) as unknown as ServerResponse;

let immediates: jest.SpyInstance;
beforeEach(() => {
  immediates = jest.spyOn(global, "setImmediate");
});
afterEach(() => immediates.mockRestore());

test("a body parsed with nothing waiting schedules no turn", () => {
  const queue = new ParseQueue(1024 ** 2);
  expect(queue.turn(1000, response())).toBeUndefined();
  expect(queue.turn(2000, response())).toBeUndefined();
  expect(immediates).not.toHaveBeenCalled();
});

test("a body that spends the turn schedules the next, and the body after it waits for that turn", async () => {
  const queue = new ParseQueue(1024 ** 2);
  expect(queue.turn(PARSE_BYTES_PER_TURN, response())).toBeUndefined();
  expect(immediates).toHaveBeenCalledTimes(1);
  const waiting = queue.turn(10, response());
  expect(waiting).toBeInstanceOf(Promise);
  await waiting;
  // The turn that started it has a whole budget again: a body of it is parsed at once.
  expect(queue.turn(PARSE_BYTES_PER_TURN - 10, response())).toBeUndefined();
});

test("what small bodies spent is kept until a turn runs: the body that would overrun it waits", async () => {
  const queue = new ParseQueue(1024 ** 2);
  const quarter = PARSE_BYTES_PER_TURN / 4;
  expect(queue.turn(quarter, response())).toBeUndefined();
  expect(queue.turn(quarter, response())).toBeUndefined();
  const overrunning = queue.turn(3 * quarter, response());
  expect(overrunning).toBeInstanceOf(Promise);
  await overrunning;
  expect(queue.turn(quarter, response())).toBeUndefined();
});

test("past the first waiting body, a body the queue has no room for is refused 503 with Retry-After", () => {
  const queue = new ParseQueue(100);
  expect(queue.turn(PARSE_BYTES_PER_TURN, response())).toBeUndefined();
  // The first to wait is not refused, however large: an empty queue has room (as hasRoomFor says).
  expect(queue.turn(150, response())).toBeInstanceOf(Promise);
  const refused = response();
  expect(() => queue.turn(10, refused)).toThrow(expect.objectContaining({ type: "CONNECTION_SERVICE_BUSY" }));
  expect(refused.setHeader).toHaveBeenCalledWith("Retry-After", "1");
});
