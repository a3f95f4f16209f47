/** One Server-Sent Event: its `event` field (`message` when absent) and its data, parsed. */
export interface ServerSentEvent {
  event: string;
  data: any;
}

/**
 * Reads a `text/event-stream` body over a real socket, one event at a time, as it arrives:
 * `next()` waits for the next event, `rest()` for every one up to the stream's end.
 */
export class EventStreamReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private done = false;

  constructor(response: Response) {
    this.reader = response.body!.getReader();
  }

  async next(): Promise<ServerSentEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return parse(block);
      }
      if (this.done) return undefined;
      const { value, done } = await this.reader.read();
      if (done) this.done = true;
      else this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  async rest(): Promise<ServerSentEvent[]> {
    const events: ServerSentEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) events.push(event);
    return events;
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

function parse(block: string): ServerSentEvent {
  let event = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) event = line.slice("event: ".length);
    else if (line.startsWith("data: ")) data.push(line.slice("data: ".length));
  }
  return { event, data: JSON.parse(data.join("\n")) };
}
