import type { ServerMessage } from "./socket-messages.js";

interface Waiting {
  chunk: ((value: unknown) => void) | undefined;
  resolve(reply: ServerMessage): void;
  reject(error: unknown): void;
  release(): void;
}

/** One message sent and waiting for its reply. */
export interface PendingCall {
  /** Its messageId. */
  id: number;
  /** Its reply, whatever it holds; rejects with the signal's reason, or when the connection goes. */
  reply: Promise<ServerMessage>;
}

/**
 * The messages a socket sent and the server has not answered yet, by messageId: a socket runs
 * many at once and the server answers each when it is done, in any order.
 */
export class SocketCalls {
  private lastId = 0;
  private readonly waiting = new Map<number, Waiting>();

  /**
   * A new messageId and the promise of its reply. `signal` ends the wait with its reason (a reply
   * that comes after is dropped); `chunk` receives a streaming action's values before its reply.
   */
  add(signal?: AbortSignal, chunk?: (value: unknown) => void): PendingCall {
    const id = ++this.lastId;
    const reply = new Promise<ServerMessage>((resolve, reject) => {
      const abort = () => this.take(id)?.reject(signal!.reason);
      signal?.addEventListener("abort", abort, { once: true });
      this.waiting.set(id, { chunk, resolve, reject, release: () => signal?.removeEventListener("abort", abort) });
    });
    return { id, reply };
  }

  /** Hands a reply to the call it answers; one nobody waits for any more (aborted, forgotten) is dropped. */
  receive(message: ServerMessage): void {
    const id = message.messageId;
    if (typeof id !== "number") return;
    if ("chunk" in message) this.waiting.get(id)?.chunk?.(message.chunk);
    else this.take(id)?.resolve(message);
  }

  /** Stops waiting for `id`, whose reply will be dropped; its promise stays pending. */
  forget(id: number): void {
    this.take(id);
  }

  /** Rejects every call waiting: the connection they were sent on is gone, so no reply can come. */
  failAll(error: unknown): void {
    for (const id of [...this.waiting.keys()]) this.take(id)?.reject(error);
  }

  private take(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    waiting.release();
    return waiting;
  }
}
