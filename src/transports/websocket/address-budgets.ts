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

interface AddressEntry {
  bucket: TokenBucket;
  refusals: TokenBucket;
  sockets: number;
}

/**
 * The WS_MAX_MESSAGES_PER_SECOND budget of each remote address, shared by every socket it has
 * open: a budget per socket would let an address multiply its rate by opening more sockets. Past
 * it, the address may have as many refusals answered again, refilled at the same rate, so what a
 * flood costs the server is bounded per address however many sockets carry it.
 */
export class AddressMessageBudgets {
  private readonly byAddress = new Map<string, AddressEntry>();

  constructor(private readonly perSecond: number) {}

  /** The budget of a socket from `address`; a socket without an address has a budget of its own. */
  join(address: string | undefined): MessageBudget {
    if (address === undefined) return new SocketShare(this.entry(), undefined, undefined);
    let entry = this.byAddress.get(address);
    if (!entry) {
      entry = this.entry();
      this.byAddress.set(address, entry);
    }
    entry.sockets += 1;
    return new SocketShare(entry, address, this.byAddress);
  }

  private entry(): AddressEntry {
    return { bucket: new TokenBucket(this.perSecond), refusals: new TokenBucket(this.perSecond), sockets: 0 };
  }
}

/** One socket's share: an object rather than three closures, as every idle socket keeps it. */
class SocketShare implements MessageBudget {
  private released = false;

  constructor(
    private readonly entry: AddressEntry,
    private readonly address: string | undefined,
    private readonly byAddress: Map<string, AddressEntry> | undefined,
  ) {}

  take(): boolean {
    return this.entry.bucket.take();
  }

  takeRefusal(): boolean {
    return this.entry.refusals.take();
  }

  release(): void {
    if (this.released || this.address === undefined) return;
    this.released = true;
    this.entry.sockets -= 1;
    // Every other socket of the address has released it already: the entry in the map is this one.
    if (this.entry.sockets === 0) this.byAddress!.delete(this.address);
  }
}
