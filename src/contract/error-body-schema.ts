import { z } from "zod";
import { ErrorType } from "../core/errors";

/**
 * The error body every transport sends (see `errorBody` in the core), as a zod schema: the
 * OpenAPI document derives its `ErrorBody` component from it, and a test can parse a real
 * response with it.
 */
export const errorBodySchema = z
  .object({
    error: z
      .object({
        message: z.string().meta({ description: "What went wrong, for a person to read." }),
        type: z.enum(ErrorType).meta({ description: "The error type; it decides the HTTP status." }),
        key: z.string().optional().meta({ description: "The param or field at fault, when there is one." }),
        value: z.unknown().optional().meta({ description: "The value at fault; never sent for a secret field." }),
        issues: z
          .array(
            z
              .object({
                path: z.array(z.union([z.string(), z.int()])),
                message: z.string(),
                code: z.string(),
              })
              .strict(),
          )
          .optional()
          .meta({ description: "Every validation problem, when the params failed validation." }),
        timestamp: z.iso.datetime().meta({ description: "When the error was raised." }),
        stack: z.string().optional().meta({ description: "The stack trace; never sent in production." }),
      })
      .strict(),
  })
  .strict();
