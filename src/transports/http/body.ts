import express, { Request, RequestHandler, Response } from "express";
import { ErrorType, TypedError } from "../../core/errors";
import { lingerAfterAnswer } from "./refused-socket";
import { filesByField, multipartParser, payloadTooLarge } from "./uploads";

export interface RequestBody {
  fields: unknown;
  files: Record<string, File | File[]>;
}

/** A request without a body is answered at once, not as a promise: most requests carry none. */
export type BodyReader = (req: Request, res: Response) => RequestBody | Promise<RequestBody>;

function run(parser: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => parser(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
}

/** multer's codes for a body that went over one of its limits; its other codes are about form. */
const MULTER_SIZE_LIMITS = new Set([
  "LIMIT_PART_COUNT",
  "LIMIT_FILE_SIZE",
  "LIMIT_FILE_COUNT",
  "LIMIT_FIELD_KEY",
  "LIMIT_FIELD_VALUE",
  "LIMIT_FIELD_COUNT",
]);

/**
 * What a body parser failed with, as the error the client gets: over a limit → 413
 * CONNECTION_PAYLOAD_TOO_LARGE, anything else → 400 CONNECTION_ACTION_PARAM_FORMATTING.
 */
export function bodyError(error: unknown, limit: number): TypedError {
  if (error instanceof TypedError) return error;
  const { type, code, status, message } = error as { type?: string; code?: string; status?: number; message?: string };
  if (type === "entity.too.large") return payloadTooLarge(limit);
  if (status === 413 || (code !== undefined && MULTER_SIZE_LIMITS.has(code))) {
    return new TypedError({
      message: `The request body is too large: ${message}`,
      type: ErrorType.CONNECTION_PAYLOAD_TOO_LARGE,
      key: "body",
    });
  }
  return new TypedError({
    message: type === "entity.parse.failed" ? `Malformed JSON body: ${message}` : `Malformed request body: ${message}`,
    type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
    key: "body",
    cause: error,
  });
}

/**
 * A body whose Content-Length is over the limit is refused before a byte of it is read: the
 * parsers would read it to its end first (so as to answer on a clean connection), which for an
 * upload that never ends means never. The answer says `Connection: close`, and the connection
 * closes lingering: what the client still sends is dropped while it reads the answer.
 */
function refuseDeclaredOversize(req: Request, res: Response, limit: number): TypedError {
  res.setHeader("Connection", "close");
  lingerAfterAnswer(req.socket);
  return payloadTooLarge(limit);
}

const NO_BODY: RequestBody = Object.freeze({ fields: undefined, files: Object.freeze(Object.create(null)) });

/**
 * Whether the request carries a body, even an empty one (RFC 9112 §6.3: a request has one only
 * when it sends Transfer-Encoding or Content-Length). Every parser below skips a request without
 * one; asking first spares them, and their promises, on each GET.
 */
function hasBody(req: Request): boolean {
  return req.headers["transfer-encoding"] !== undefined || !Number.isNaN(Number(req.headers["content-length"]));
}

/** Reads a JSON, urlencoded or multipart body; a body of any other type is left unread. */
export function bodyReader(bodyLimit: number, maxFiles: number): BodyReader {
  const parsers = [
    express.json({ limit: bodyLimit, type: ["application/json", "application/*+json"] }),
    express.urlencoded({ limit: bodyLimit, extended: false }),
    multipartParser(bodyLimit, maxFiles),
  ];
  const read = async (req: Request, res: Response): Promise<RequestBody> => {
    if (Number(req.headers["content-length"]) > bodyLimit) throw refuseDeclaredOversize(req, res, bodyLimit);
    try {
      for (const parser of parsers) await run(parser, req, res);
    } catch (error) {
      throw bodyError(error, bodyLimit);
    }
    const fields: unknown = req.body;
    if (Array.isArray(fields) || (fields !== undefined && (fields === null || typeof fields !== "object"))) {
      throw new TypedError({
        message: "The request body must be a JSON object, whose keys are the action's params",
        type: ErrorType.CONNECTION_ACTION_PARAM_FORMATTING,
        key: "body",
      });
    }
    return { fields, files: filesByField(req.files as Express.Multer.File[] | undefined) };
  };
  return (req, res) => (hasBody(req) ? read(req, res) : NO_BODY);
}
