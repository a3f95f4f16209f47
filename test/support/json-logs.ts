import { Writable } from "node:stream";

/** One JSON log line, as pino writes it. */
export type LogLine = Record<string, any>;

export interface JsonLogs<Line> {
  /** The destination to give a logger or a test server (`logDestination`, with `LOG_FORMAT=json`). */
  stream: Writable;
  /** Each line, parsed, in the order written. */
  lines: Line[];
  /** Each line as written, for what must not appear anywhere in it. */
  text: string[];
}

/** Collects the JSON log lines written to its stream; a line split over writes is kept once whole. */
export function jsonLogs<Line = LogLine>(): JsonLogs<Line> {
  const lines: Line[] = [];
  const text: string[] = [];
  let pending = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString();
      const complete = pending.split("\n");
      pending = complete.pop()!;
      for (const line of complete) {
        if (!line.trim()) continue;
        text.push(line);
        lines.push(JSON.parse(line) as Line);
      }
      done();
    },
  });
  return { stream, lines, text };
}
