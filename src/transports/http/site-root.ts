import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Answers a request at the site root outside the API and the Express application (`/metrics`,
 * the probes), and says whether it took it.
 */
export type SiteRootHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The first handler that takes the request answers it; `otherwise` when none does. */
export function siteRootListener(handlers: readonly SiteRootHandler[], otherwise: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    for (const handler of handlers) if (handler(req, res)) return;
    otherwise(req, res);
  };
}
