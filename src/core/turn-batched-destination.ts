/** Where the batched lines finally go: pino's own synchronous destination (SonicBoom), which retries partial writes. */
export interface LineSink {
  write(chunk: string): unknown;
}

/** Past this many characters a batch is written at once rather than at the end of the turn. */
const MAX_BATCH_CHARS = 16 * 1024;

/** Destinations holding lines, for the exit hook; a destination is here only while it holds some. */
const holding = new Set<TurnBatchedDestination>();
let exitHookInstalled = false;

function flushAllSync(): void {
  for (const destination of holding) destination.flushSync();
}

/**
 * Joins the log lines written during one turn of the event loop and writes them with one system
 * call at the end of that turn (`setImmediate`), instead of one call per line: under load every
 * request, message and job writes a line, and the write costs more than building it. A line waits
 * at most for the rest of its turn; lines keep their order; what is held is written synchronously
 * when the process exits (`process.exit` included), so a crash that reaches the exit handlers
 * loses nothing. Only a kill that skips them (SIGKILL, an out-of-memory abort) can lose the lines
 * of the turn it interrupted.
 */
export class TurnBatchedDestination {
  private pending = "";
  private scheduled: NodeJS.Immediate | undefined;
  private readonly flushAtTurnEnd = () => {
    this.scheduled = undefined;
    this.flushSync();
  };

  constructor(private readonly sink: LineSink) {
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", flushAllSync);
    }
  }

  write(line: string): boolean {
    this.pending += line;
    if (this.pending.length >= MAX_BATCH_CHARS) {
      this.flushSync();
    } else if (!this.scheduled) {
      holding.add(this);
      // unref: a held line never keeps a process alive that would otherwise exit (the exit hook writes it).
      this.scheduled = setImmediate(this.flushAtTurnEnd).unref();
    }
    return true;
  }

  /** Writes what is held now. pino calls it from `logger.flush()`. */
  flushSync(): void {
    if (this.scheduled) {
      clearImmediate(this.scheduled);
      this.scheduled = undefined;
    }
    holding.delete(this);
    if (!this.pending) return;
    const batch = this.pending;
    this.pending = "";
    this.sink.write(batch);
  }

  /** pino's `logger.flush(callback)`. */
  flush(callback?: (error?: Error) => void): void {
    try {
      this.flushSync();
      callback?.();
    } catch (error) {
      callback?.(error as Error);
    }
  }
}
