let served = 0;

/** The global middleware's work in every subject: number the request. */
export function countRequest(): number {
  served += 1;
  return served;
}
