import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * Helmet's headers (nosniff, frame deny, no-referrer …). Its Content-Security-Policy is left to
 * the pages that need one: a JSON API gains nothing from it and an app's own public pages would
 * break under a default policy. HSTS is only meaningful, and only sent, over HTTPS.
 */
export function securityHeaders(): RequestHandler {
  const common = helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    xFrameOptions: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
  });
  const hsts = helmet.strictTransportSecurity();
  return (req, res, next) => {
    common(req, res, (error?: unknown) => {
      if (error || !req.secure) return next(error);
      hsts(req, res, next);
    });
  };
}
