import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * Middlewares for every path run in order as one Express layer, each passing on as it would to
 * the router: a thrown error or a rejected promise goes to the error handlers, `next()` to the
 * following one, and after the last to the router's next layer. Express's router spends more per
 * layer (path matching, params, URL trimming) than these middlewares spend on a request.
 */
export function handlerSequence(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error || index === handlers.length) return done(error);
      const handler = handlers[index++]!;
      try {
        const returned: unknown = handler(req, res, next);
        if (returned instanceof Promise) returned.catch((rejection: unknown) => done(rejection || new Error("Rejected promise")));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
