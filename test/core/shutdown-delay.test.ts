import { readShutdownDelay } from "../../src/core/shutdown-delay";

test("SHUTDOWN_DELAY is 0 unless set, a whole number of ms, never negative", () => {
  expect(readShutdownDelay({ raw: {} })).toBe(0);
  expect(readShutdownDelay({ raw: { SHUTDOWN_DELAY: "5000" } })).toBe(5000);
  expect(() => readShutdownDelay({ raw: { SHUTDOWN_DELAY: "-1" } })).toThrow(/SHUTDOWN_DELAY/);
  expect(() => readShutdownDelay({ raw: { SHUTDOWN_DELAY: "soon" } })).toThrow(/SHUTDOWN_DELAY/);
});
