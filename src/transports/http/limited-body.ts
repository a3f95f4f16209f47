import type { IncomingMessage, ServerResponse } from "node:http";
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { ErrorType, TypedError } from "../../core/errors";
import { lingerAfterAnswer } from "./refused-socket";
import { payloadTooLarge } from "./uploads";

/** A request body that cannot be read as what it claims to be: 400 CONNECTION_ACTION_PARAM_FORMATTING. */
export function malformedBody(message: string, cause?: unknown): TypedError {
  return new TypedError({
    message,
    type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
    key: "body",
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The decoder of a compressed request body; undefined for `identity`. */
function decoderFor(req: IncomingMessage): Transform | undefined {
  const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding === "identity") return undefined;
  if (encoding === "gzip" || encoding === "x-gzip") return createGunzip();
  if (encoding === "deflate") return createInflate();
  if (encoding === "br") return createBrotliDecompress();
  throw malformedBody(`Unsupported Content-Encoding "${encoding}": send gzip, deflate, br or identity`);
}

/**
 * Makes a refusal the last answer on its connection: it says `Connection: close` and the
 * connection closes lingering, so a client still sending reads the refusal while what it sends is
 * dropped.
 */
export function closeLingeringAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("Connection", "close");
  lingerAfterAnswer(req.socket);
}

/**
 * Refuses a request whose body is over the limit, at once, whether its Content-Length said so or
 * its chunks only now went over; its connection closes lingering (see `closeLingeringAfterAnswer`).
 */
export function refuseOversize(req: IncomingMessage, res: ServerResponse, limit: number): TypedError {
  closeLingeringAfterAnswer(req, res);
  return payloadTooLarge(limit);
}

/**
 * The body as bytes, decoded (gzip, deflate, br), at most `limit` of them once decoded, so a
 * compressed bomb is bounded like a plain body. The request is refused (see `refuseOversize`)
 * before a byte is read when its Content-Length is over the limit, else the moment it crosses
 * the limit, not when it ends; what it still sends is drained unread.
 */
export function readLimitedBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer> {
  if (Number(req.headers["content-length"]) > limit) return Promise.reject(refuseOversize(req, res, limit));
  return new Promise((resolve, reject) => {
    const decoder = decoderFor(req);
    const source = decoder ? req.pipe(decoder) : req;
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      source.off("data", onData).off("end", onEnd).off("error", onError);
      req.off("error", onError);
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      req.resume();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      reject(refuseOversize(req, res, limit));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(malformedBody(`Malformed request body: ${error.message}`, error));
    };
    source.on("data", onData).on("end", onEnd).on("error", onError);
    if (decoder) req.on("error", onError);
  });
}
