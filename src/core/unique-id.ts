import { randomBytes } from "node:crypto";

/**
 * 64 random bits drawn once per process: ids from different processes (workers, restarts, other
 * hosts) differ by prefix, and within a process the counter tells them apart, at a fraction of a
 * random UUID's cost. They are unique, not secret: nothing may use one as a credential.
 */
const processPrefix = randomBytes(8).toString("hex");
let counter = 0;

/** An id unique across processes, such as `8f2c4e1a9b3d7f60-1k`: the process prefix, then a base-36 counter. */
export function uniqueId(): string {
  counter += 1;
  return `${processPrefix}-${counter.toString(36)}`;
}
