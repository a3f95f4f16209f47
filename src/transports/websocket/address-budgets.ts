import { TokenBucket } from "./token-bucket";

/** One socket's share of its address's message budget. */
export interface MessageBudget {
  /** Takes one message from the budget; false when the address has used it up. */
  take(): boolean;
  /** Takes one refusal from the address's allowance of answered refusals; false when it is spent. */
  takeRefusal(): boolean;
  /** The socket has closed: the address's budget is dropped with its last socket. */
  release(): void;
}

/**
 * The WS_MAX_MESSAGES_PER_SECOND budget of each remote address, shared by every socket it has
 * open: a budget per socket would let an address multiply its rate by opening more sockets. Past
 * it, the address may have as many refusals answered again, refilled at the same rate, so what a
 * flood costs the server is bounded per address however many sockets carry it.
 */
export class AddressMessageBudgets {
  private readonly byAddress = new Map<string, { bucket: TokenBucket; refusals: TokenBucket; sockets: number }>();

  constructor(private readonly perSecond: number) {}

  /** The budget of a socket from `address`; a socket without an address has a budget of its own. */
  join(address: string | undefined): MessageBudget {
    if (address === undefined) {
      const bucket = new TokenBucket(this.perSecond);
      const refusals = new TokenBucket(this.perSecond);
      return { take: () => bucket.take(), takeRefusal: () => refusals.take(), release: () => undefined };
    }
    let entry = this.byAddress.get(address);
    if (!entry) {
      entry = { bucket: new TokenBucket(this.perSecond), refusals: new TokenBucket(this.perSecond), sockets: 0 };
      this.byAddress.set(address, entry);
    }
    entry.sockets += 1;
    const shared = entry;
    let released = false;
    return {
      take: () => shared.bucket.take(),
      takeRefusal: () => shared.refusals.take(),
      release: () => {
        if (released) return;
        released = true;
        shared.sockets -= 1;
        // Every other socket of the address has released it already: the entry in the map is this one.
        if (shared.sockets === 0) this.byAddress.delete(address);
      },
    };
  }
}
