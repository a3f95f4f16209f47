import type { ChildOutcome, FanOutProgress, FanOutRecord } from "./driver";

/** Progress of a fan-out from its record and the final outcomes of the children seen so far. */
export function summarizeFanOut(record: FanOutRecord, outcomes: ReadonlyMap<number, ChildOutcome>): FanOutProgress {
  const results: unknown[] = new Array(record.total).fill(null);
  const errors: FanOutProgress["errors"] = [];
  let succeeded = 0;
  for (const [index, outcome] of [...outcomes].sort(([a], [b]) => a - b)) {
    if (outcome.ok) {
      succeeded += 1;
      results[index] = outcome.result ?? null;
    } else {
      errors.push({ index, error: outcome.error });
    }
  }
  const failed = errors.length;
  const pending = record.total - succeeded - failed;
  return { ...record, succeeded, failed, pending, complete: pending === 0, results, errors };
}
