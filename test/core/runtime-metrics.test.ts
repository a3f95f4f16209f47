import { delayOf } from "../../src/core/runtime-metrics";

describe("the event loop's delay as the metrics report it", () => {
  it("is what the loop added to the sampling interval, not the interval itself", () => {
    // Node's histogram records each whole interval between its timer's runs: 20 ms of resolution and 1.5 ms of delay.
    expect(delayOf(21_500_000, 20)).toBeCloseTo(0.0015, 9);
  });

  it("is never negative, when a timer ran a little early", () => {
    expect(delayOf(19_900_000, 20)).toBe(0);
  });
});
