import { Transform } from "node:stream";
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import type multerModule from "multer";
import { ErrorType, TypedError } from "../../core/errors";

export function payloadTooLarge(limit: number): TypedError {
  return new TypedError({
    message: `The request body is larger than the limit of ${limit} bytes`,
    type: ErrorType.CONNECTION_PAYLOAD_TOO_LARGE,
    key: "body",
  });
}

/** Fails the stream once more than `limit` bytes went through it, whatever the Content-Length said. */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      callback(seen > limit ? payloadTooLarge(limit) : null, chunk);
    },
  });
}

/**
 * multipart/form-data through multer, kept in memory: the request as a whole is bounded by
 * `fileLimit` (HTTP_FILE_LIMIT), not only file by file, and each text field by `fieldLimit`
 * (HTTP_BODY_LIMIT).
 */
export function multipartParser(fileLimit: number, fieldLimit: number, maxFiles: number): RequestHandler {
  const multer = require("multer") as typeof multerModule;
  const options = {
    storage: multer.memoryStorage(),
    limits: {
      fileSize: fileLimit,
      fieldSize: fieldLimit,
      files: maxFiles,
      fieldNestingDepth: 8,
      fieldArrayIndexLimit: 1000,
    },
    streamHandler(req: IncomingMessage, busboy: NodeJS.WritableStream & { destroy(error?: Error): void }) {
      const counter = byteLimit(fileLimit);
      counter.on("error", (error) => busboy.destroy(error));
      req.pipe(counter).pipe(busboy);
    },
  };
  return multer(options as multerModule.Options).any();
}

/**
 * Uploaded files as web-standard `File`s, by field name: one `File`, or an array when the field
 * was sent more than once. Validate them with `z.file()`.
 */
export function filesByField(uploads: readonly Express.Multer.File[] | undefined): Record<string, File | File[]> {
  const byField: Record<string, File | File[]> = Object.create(null);
  for (const upload of uploads ?? []) {
    const file = new File([upload.buffer as Uint8Array as BlobPart], upload.originalname, { type: upload.mimetype });
    const existing = byField[upload.fieldname];
    byField[upload.fieldname] = existing === undefined ? file : [...(Array.isArray(existing) ? existing : [existing]), file];
  }
  return byField;
}
