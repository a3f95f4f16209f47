import type { Request, RequestHandler, Response } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseForm } from "node:querystring";
import typeis from "type-is";
import type { z } from "zod";
import { ErrorType, TypedError } from "../../core/errors";
import { assertJsonTextBounds } from "../../core/json-text-bounds";
import type { ParamsBounds } from "../../core/params-bounds";
import { takesFiles } from "../../schema/takes-files";
import { closeLingeringAfterAnswer, malformedBody, readLimitedBody, refuseOversize } from "./limited-body";
import type { ParseQueue } from "./parse-queue";
import { filesByField, multipartParser, payloadTooLarge } from "./uploads";

export interface RequestBody {
  fields: unknown;
  files: Record<string, File | File[]>;
}

/** A request without a body is answered at once, not as a promise: most requests carry none. */
export type BodyReader = (req: IncomingMessage, res: ServerResponse) => RequestBody | Promise<RequestBody>;

export interface BodyLimits {
  /** Largest JSON or urlencoded body, and largest multipart text field, in bytes. */
  bodyLimit: number;
  /** Largest multipart body, its files together, for actions whose inputs take files. */
  fileLimit: number;
  maxFiles: number;
  /** What the params of a JSON body may hold, checked on its text before it is parsed. */
  paramsBounds: ParamsBounds;
  /** The turns JSON and urlencoded bodies take at being parsed, shared by every request of the server. */
  parseQueue: ParseQueue;
}

/** Runs an Express middleware (multer) on the request; it reads only what node:http gives. */
function run(parser: RequestHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => parser(req as Request, res as Response, (error?: unknown) => (error ? reject(error) : resolve())));
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
  return malformedBody(type === "entity.parse.failed" ? `Malformed JSON body: ${message}` : `Malformed request body: ${message}`, error);
}

const NO_FILES: Record<string, File | File[]> = Object.freeze(Object.create(null));
const NO_BODY: RequestBody = Object.freeze({ fields: undefined, files: NO_FILES });

/**
 * Whether the request carries a body, even an empty one (RFC 9112 §6.3: a request has one only
 * when it sends Transfer-Encoding or Content-Length). Asking first spares the readers, and their
 * promises, on each GET.
 */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || !Number.isNaN(Number(req.headers["content-length"]));
}

/** A body known to be empty before it is read; a chunked one is only known once read. */
function declaredEmpty(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] === undefined && Number(req.headers["content-length"]) === 0;
}

export const JSON_TYPES = ["application/json", "application/*+json"];
const FORM_TYPE = "application/x-www-form-urlencoded";
const MULTIPART_TYPE = "multipart/form-data";

function assertUtf8(req: IncomingMessage): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") throw malformedBody(`Unsupported charset "${charset}": send utf-8`);
}

/**
 * UTF-8 that is not valid is refused rather than read with U+FFFD in place of its bytes, which
 * would store something other than what was sent. A byte order mark is kept, as Buffer's decoding
 * keeps it, so that JSON.parse refuses it as before.
 */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch (error) {
    throw malformedBody("The request body is not valid UTF-8", error);
  }
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedBody(`Malformed JSON body: ${(error as Error).message}`, error);
  }
}

/** JSON's `null`, `5` or `"abc"` are as wrong here as `[1]`: params are the keys of an object. */
function assertObject(fields: unknown): void {
  if (fields === undefined || (fields !== null && typeof fields === "object" && !Array.isArray(fields))) return;
  throw malformedBody("The request body must be a JSON object, whose keys are the action's params");
}

/**
 * A body of JSON or form, read up to the body limit, once its turn at being parsed has come (see
 * `ParseQueue`); a declared length the queue has no room for is refused before a byte is read,
 * and the HTTP server drains the body after the answer.
 */
async function readBodyForParse(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<Buffer> {
  assertUtf8(req);
  const declared = Number(req.headers["content-length"]);
  if (declared > 0 && declared <= limits.bodyLimit && !limits.parseQueue.hasRoomFor(declared)) throw limits.parseQueue.refusal(res);
  const bytes = await readLimitedBody(req, res, limits.bodyLimit);
  if (bytes.length === 0) return bytes;
  const turn = limits.parseQueue.turn(bytes.length, res);
  if (turn) await turn;
  return bytes;
}

/**
 * A JSON body, read up to the body limit and parsed once, undefined when empty; its text is
 * first scanned for the params bounds, so that a body of too many keys costs no parse.
 */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<unknown> {
  const bytes = await readBodyForParse(req, res, limits);
  assertJsonTextBounds(bytes, limits.paramsBounds);
  return parseJson(decodeUtf8(bytes));
}

async function readJsonFields(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<RequestBody> {
  const fields = await readJsonBody(req, res, limits);
  assertObject(fields);
  return { fields, files: NO_FILES };
}

async function readFormFields(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<RequestBody> {
  const bytes = await readBodyForParse(req, res, limits);
  // No key limit in the form parse: the params walk refuses too many with a 413 instead of dropping them.
  return { fields: parseForm(decodeUtf8(bytes), undefined, undefined, { maxKeys: 0 }), files: NO_FILES };
}

async function readMultipart(req: IncomingMessage, res: ServerResponse, parser: RequestHandler, limit: number): Promise<RequestBody> {
  try {
    await run(parser, req, res);
  } catch (thrown) {
    const error = bodyError(thrown, limit);
    if (error.status === 413) throw refuseOversize(req, res, limit);
    throw error;
  }
  const parsed = req as Request;
  return { fields: parsed.body as unknown, files: filesByField(parsed.files as Express.Multer.File[] | undefined) };
}

/**
 * 415 for a body the action cannot read, naming the types it reads. A body of known length (at
 * most the body limit, or it was refused 413) is drained by the HTTP server after the answer; a
 * chunked one has no end in sight, so its connection closes lingering, as for a 413.
 */
function unsupportedMediaType(req: IncomingMessage, res: ServerResponse, accepted: readonly string[]): TypedError {
  if (req.headers["content-length"] === undefined) closeLingeringAfterAnswer(req, res);
  const sent = req.headers["content-type"]?.split(";")[0]?.trim();
  const reads = `${accepted.slice(0, -1).join(", ")} or ${accepted.at(-1)}`;
  return new TypedError({
    message: sent
      ? `This action reads a body of type ${reads}, not "${sent}"`
      : `The request body has no Content-Type: this action reads a body of type ${reads}`,
    type: ErrorType.CONNECTION_UNSUPPORTED_MEDIA_TYPE,
    key: "body",
    ...(sent ? { value: sent } : {}),
  });
}

/**
 * The body reader of one action, chosen at boot: an action without inputs has no body read at
 * all; one whose inputs take files (see `takesFiles`) reads JSON, urlencoded and multipart
 * bodies; any other reads JSON and urlencoded. A body of another type, or of none, is 415, unless
 * its Content-Length is 0. A Content-Length over the limit is refused before a byte of the body
 * is read.
 */
export function bodyReaderFor(inputs: z.ZodType | undefined, limits: BodyLimits): BodyReader {
  const { bodyLimit, fileLimit, maxFiles } = limits;
  if (!inputs) {
    return (req, res) => {
      if (hasBody(req) && Number(req.headers["content-length"]) > bodyLimit) throw refuseOversize(req, res, bodyLimit);
      return NO_BODY;
    };
  }
  const multipart = takesFiles(inputs) ? multipartParser(fileLimit, bodyLimit, maxFiles) : undefined;
  const readable = multipart ? [...JSON_TYPES, FORM_TYPE, MULTIPART_TYPE] : [...JSON_TYPES, FORM_TYPE];
  const accepted = ["application/json", FORM_TYPE, ...(multipart ? [MULTIPART_TYPE] : [])];
  const read = (req: IncomingMessage, res: ServerResponse): RequestBody | Promise<RequestBody> => {
    const type = typeis(req, readable);
    const limit = type === MULTIPART_TYPE ? fileLimit : bodyLimit;
    if (Number(req.headers["content-length"]) > limit) throw refuseOversize(req, res, limit);
    if (!type) {
      if (declaredEmpty(req)) return NO_BODY;
      throw unsupportedMediaType(req, res, accepted);
    }
    if (type === FORM_TYPE) return readFormFields(req, res, limits);
    if (type === MULTIPART_TYPE && multipart) return readMultipart(req, res, multipart, fileLimit);
    return readJsonFields(req, res, limits);
  };
  return (req, res) => (hasBody(req) ? read(req, res) : NO_BODY);
}
