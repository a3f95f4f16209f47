/**
 * Allows `perSecond` events a second on average, and bursts of up to `perSecond`: a bucket of
 * that many tokens refilled continuously, one token an event.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt = performance.now();

  constructor(private readonly perSecond: number) {
    this.tokens = perSecond;
  }

  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
