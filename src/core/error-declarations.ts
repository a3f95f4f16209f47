import type { z } from "zod";
import type { ErrorType } from "./errors";

/**
 * The typed errors an action or a middleware may end a call with, keyed by `ErrorType`: `true`, or
 * a zod schema of the error's `value`. A class field's `true` is typed `boolean`, so `boolean` is
 * taken; `false` declares nothing.
 */
export type ErrorDeclarations = { readonly [T in ErrorType]?: z.ZodType | boolean };
