import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

let served = 0;

/** The global middleware's work in every subject: number the request. */
export function countRequest(): number {
  served += 1;
  return served;
}

// Under `npm run bench -- --profile` the count goes beside the process's profile at exit, so that
// `npm run bench:profile` gives each subject's time per call, warm-up included as in the profile.
const callsDir = process.env.BENCH_CALLS_DIR;
if (callsDir) {
  process.once("exit", () => {
    mkdirSync(callsDir, { recursive: true });
    writeFileSync(join(callsDir, `calls-${process.pid}.txt`), String(served));
  });
}
