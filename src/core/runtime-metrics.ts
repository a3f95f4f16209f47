import { monitorEventLoopDelay } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import type { BatchObservableResult, Meter } from "@opentelemetry/api";
import {
  ATTR_V8JS_HEAP_SPACE_NAME,
  METRIC_NODEJS_EVENTLOOP_DELAY_MAX,
  METRIC_NODEJS_EVENTLOOP_DELAY_MEAN,
  METRIC_NODEJS_EVENTLOOP_DELAY_P50,
  METRIC_NODEJS_EVENTLOOP_DELAY_P90,
  METRIC_NODEJS_EVENTLOOP_DELAY_P99,
  METRIC_V8JS_MEMORY_HEAP_LIMIT,
  METRIC_V8JS_MEMORY_HEAP_USED,
} from "@opentelemetry/semantic-conventions/incubating";

/** How often the event loop's delay is sampled, in ms. */
const EVENT_LOOP_RESOLUTION_MS = 20;
const NS_PER_SECOND = 1e9;

/**
 * Node's histogram records each whole interval between its timer's runs, the resolution
 * included: an idle loop would read 20 ms. The delay is what the loop added to it.
 */
export function delayOf(intervalNs: number, resolutionMs = EVENT_LOOP_RESOLUTION_MS): number {
  return Math.max(0, intervalNs / NS_PER_SECOND - resolutionMs / 1000);
}

/**
 * The process's event-loop delay (since the previous collection) and V8 heap, read at collection
 * time (v8js.memory.heap.limit is each space's allocated size, as the convention reads it). Returns what stops the event-loop sampling.
 */
export function observeRuntime(meter: Meter): () => void {
  const delay = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  delay.enable();
  const delayGauge = (name: string, description: string) => meter.createObservableGauge(name, { unit: "s", description });
  const gauges = {
    p50: delayGauge(METRIC_NODEJS_EVENTLOOP_DELAY_P50, "Event loop 50th percentile delay"),
    p90: delayGauge(METRIC_NODEJS_EVENTLOOP_DELAY_P90, "Event loop 90th percentile delay"),
    p99: delayGauge(METRIC_NODEJS_EVENTLOOP_DELAY_P99, "Event loop 99th percentile delay"),
    max: delayGauge(METRIC_NODEJS_EVENTLOOP_DELAY_MAX, "Event loop maximum delay"),
    mean: delayGauge(METRIC_NODEJS_EVENTLOOP_DELAY_MEAN, "Event loop mean delay"),
  };
  const delays = Object.values(gauges);
  const readDelays = (result: BatchObservableResult) => {
    // Without a sample yet the histogram reads NaN and its minimum as a huge number: nothing to say.
    if (delay.count === 0) return;
    result.observe(gauges.p50, delayOf(delay.percentile(50)));
    result.observe(gauges.p90, delayOf(delay.percentile(90)));
    result.observe(gauges.p99, delayOf(delay.percentile(99)));
    result.observe(gauges.max, delayOf(delay.max));
    result.observe(gauges.mean, delayOf(delay.mean));
    delay.reset();
  };
  meter.addBatchObservableCallback(readDelays, delays);

  const heapUsed = meter.createObservableUpDownCounter(METRIC_V8JS_MEMORY_HEAP_USED, { unit: "By", description: "Heap memory in use, by heap space" });
  const heapLimit = meter.createObservableUpDownCounter(METRIC_V8JS_MEMORY_HEAP_LIMIT, { unit: "By", description: "Heap memory allocated, by heap space" });
  meter.addBatchObservableCallback(
    (result) => {
      for (const space of getHeapSpaceStatistics()) {
        const attributes = { [ATTR_V8JS_HEAP_SPACE_NAME]: space.space_name };
        result.observe(heapUsed, space.space_used_size, attributes);
        result.observe(heapLimit, space.space_size, attributes);
      }
    },
    [heapUsed, heapLimit],
  );
  return () => delay.disable();
}
