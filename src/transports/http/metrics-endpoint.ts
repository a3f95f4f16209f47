import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorType, TypedError } from "../../core/errors";
import type { MetricsSettings } from "../../core/metrics-settings";
import { safeCompare } from "../../core/safe-compare";
import type { HeraldServer } from "../../core/server";
import type { HttpAccessLog } from "./access-log";
import { assignRequestId } from "./request-id";
import { sendError } from "./response-writer";
import { requestTarget } from "./request-target";
import type { SiteRootHandler } from "./site-root";

export const METRICS_PATH = "/metrics";
const REALM = 'realm="metrics"';

/** Whether the request carries the bearer token or the Basic credential the settings ask for. */
function authorized(req: IncomingMessage, settings: MetricsSettings): boolean {
  const header = req.headers.authorization ?? "";
  const space = header.indexOf(" ");
  const scheme = header.slice(0, space).toLowerCase();
  const credential = header.slice(space + 1).trim();
  if (scheme === "bearer" && settings.token !== undefined) return safeCompare(credential, settings.token);
  if (scheme === "basic" && settings.basicAuth !== undefined) {
    const decoded = Buffer.from(credential, "base64").toString("utf8");
    const separator = decoded.indexOf(":");
    // Both compared, whatever the first gives: the time says nothing of which one was wrong.
    const user = safeCompare(decoded.slice(0, separator), settings.basicAuth.user);
    const password = safeCompare(decoded.slice(separator + 1), settings.basicAuth.password);
    return separator > 0 && user && password;
  }
  return false;
}

function challenges(settings: MetricsSettings): string[] {
  return [...(settings.token !== undefined ? [`Bearer ${REALM}`] : []), ...(settings.basicAuth !== undefined ? [`Basic ${REALM}`] : [])];
}

/**
 * `GET /metrics` at the site root: the server's metrics in Prometheus text, with the credential
 * where one is set (METRICS_TOKEN, METRICS_BASIC_AUTH). Off (METRICS=false), or in production
 * without a credential and not made public, it takes nothing and the request gets the 404 of any
 * path nothing serves.
 */
export function metricsEndpoint(server: HeraldServer, access?: HttpAccessLog): SiteRootHandler {
  return (req: IncomingMessage, res: ServerResponse) => {
    const { metrics } = server;
    if (!metrics.scrapable || requestTarget(req)?.pathname !== METRICS_PATH) return false;
    access?.watch(req, res, assignRequestId(req, res), performance.now());
    res.setHeader("Cache-Control", "no-store");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      const refusal = new TypedError({ message: `${req.method} is not allowed on ${METRICS_PATH}`, type: ErrorType.CONNECTION_METHOD_NOT_ALLOWED });
      void sendError(res, refusal, server.codec);
      return true;
    }
    const asked = challenges(metrics.settings);
    if (asked.length > 0 && !authorized(req, metrics.settings)) {
      res.setHeader("WWW-Authenticate", asked);
      const refusal = new TypedError({ message: `${METRICS_PATH} needs its credential`, type: ErrorType.CONNECTION_NOT_AUTHENTICATED });
      void sendError(res, refusal, server.codec);
      return true;
    }
    metrics.scrape(req, res);
    return true;
  };
}
