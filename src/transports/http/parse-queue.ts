import type { ServerResponse } from "node:http";
import { ErrorType, TypedError } from "../../core/errors";

/**
 * The body bytes parsed in one turn of the event loop. A body over it is parsed alone in its turn:
 * a body of the 1 MiB default limit costs tens of milliseconds of parse, bounds walk and merge,
 * and requests without a body are served between two such turns.
 */
export const PARSE_BYTES_PER_TURN = 64 * 1024;

/** What a body refused for a full queue is told to wait, in whole seconds. */
export const PARSE_QUEUE_RETRY_AFTER_SECONDS = 1;

interface Waiting {
  bytes: number;
  start: () => void;
}

/**
 * Takes turns at parsing the bodies the server has read, so that many large bodies arriving
 * together are parsed over several turns of the event loop rather than in one stall. A body is
 * parsed at once while nothing waits and the turn has room for it; otherwise it waits for a later
 * turn, in arrival order, up to `limit` bytes waiting in all; past that it is refused with 503
 * CONNECTION_SERVICE_BUSY and `Retry-After` (the first to wait is never refused: an empty queue
 * has room). The next turn starts from `setImmediate`, after the event loop has read the sockets:
 * what a body's turn runs synchronously after its parse (the bounds walk and merge of its params,
 * its action up to its first I/O) stays in that turn.
 *
 * A turn is scheduled only when a body waits or the turn's bytes are spent, not for every body
 * parsed at once: small bodies then cost no timer. What small bodies spend is kept until a turn
 * runs, so a body that would overrun it waits for the next turn, in the same pass of the event
 * loop, even when the bodies before it arrived in earlier passes: stricter, never looser, than a
 * budget per pass.
 */
export class ParseQueue {
  private readonly waiting: Waiting[] = [];
  private waitingBytes = 0;
  private spentThisTurn = 0;
  private turnScheduled = false;

  constructor(private readonly limit: number) {}

  /** Whether a body of `bytes` would find room now, whether to be parsed or to wait: checked on a declared length before the body is read. */
  hasRoomFor(bytes: number): boolean {
    return this.waiting.length === 0 || this.waitingBytes + bytes <= this.limit;
  }

  /**
   * The turn of a body of `bytes`: undefined when it may be parsed now, a promise of its turn when
   * it waits. Throws the 503 refusal, its `Retry-After` set on `res`, when the queue has no room.
   */
  turn(bytes: number, res: ServerResponse): Promise<void> | undefined {
    if (this.waiting.length === 0 && (this.spentThisTurn === 0 || this.spentThisTurn + bytes <= PARSE_BYTES_PER_TURN)) {
      this.spentThisTurn += bytes;
      if (this.spentThisTurn >= PARSE_BYTES_PER_TURN) this.scheduleTurn();
      return undefined;
    }
    if (this.waiting.length > 0 && this.waitingBytes + bytes > this.limit) throw this.refusal(res);
    this.waitingBytes += bytes;
    this.scheduleTurn();
    return new Promise((start) => this.waiting.push({ bytes, start }));
  }

  /** The 503 of a body that finds no room, its `Retry-After` set on `res`. */
  refusal(res: ServerResponse): TypedError {
    if (!res.headersSent) res.setHeader("Retry-After", String(PARSE_QUEUE_RETRY_AFTER_SECONDS));
    return new TypedError({
      message: `The server is busy parsing other request bodies, retry in ${PARSE_QUEUE_RETRY_AFTER_SECONDS} s`,
      type: ErrorType.CONNECTION_SERVICE_BUSY,
      key: "body",
      value: { retryAfter: PARSE_QUEUE_RETRY_AFTER_SECONDS },
    });
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => this.nextTurn());
  }

  private nextTurn(): void {
    this.turnScheduled = false;
    this.spentThisTurn = 0;
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (this.spentThisTurn > 0 && this.spentThisTurn + next.bytes > PARSE_BYTES_PER_TURN) break;
      this.waiting.shift();
      this.waitingBytes -= next.bytes;
      this.spentThisTurn += next.bytes;
      next.start();
    }
    if (this.waiting.length > 0 || this.spentThisTurn >= PARSE_BYTES_PER_TURN) this.scheduleTurn();
  }
}
