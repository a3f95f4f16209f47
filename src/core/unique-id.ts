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
  return uniqueIdOf(nextUniqueNumber());
}

/** The number of the next unique id, for a holder that spells it out only when it is read (uniqueIdOf). */
export function nextUniqueNumber(): number {
  counter += 1;
  return counter;
}

/** The id of a number from nextUniqueNumber. */
export function uniqueIdOf(uniqueNumber: number): string {
  return `${processPrefix}-${uniqueNumber.toString(36)}`;
}
