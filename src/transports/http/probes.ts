import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readiness } from "../../core/readiness";
import type { HttpAccessLog } from "./access-log";
import { assignRequestId } from "./request-id";
import { requestTarget } from "./request-target";

/** The probes' paths, at the site root whatever the API prefix. */
export const LIVENESS_PATH = "/livez";
export const READINESS_PATH = "/readyz";

const PROBE_METHODS = "GET, HEAD";

export interface ProbeOptions {
  readiness: () => Promise<Readiness>;
  /** True once the listener has begun to close: a probe's connection then closes after its answer. */
  closing: () => boolean;
  /** Where each probe gets its line (at debug, see writeAccessLine). */
  access: HttpAccessLog;
}

/** Answers a probe request; returns whether the request was one. */
export type ProbeResponder = (req: IncomingMessage, res: ServerResponse) => boolean;

type Probe = "live" | "ready";

function probeOf(req: IncomingMessage): Probe | undefined {
  const path = requestTarget(req)?.pathname;
  if (path === LIVENESS_PATH) return "live";
  if (path === READINESS_PATH) return "ready";
  return undefined;
}

function answer(req: IncomingMessage, res: ServerResponse, status: number, body: object, closing: boolean): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (closing) res.setHeader("Connection", "close");
  res.end(req.method === "HEAD" ? undefined : text);
}

/**
 * `GET /livez` and `GET /readyz`, answered straight from node:http before anything else runs, so
 * that any listener (the web transport's, a workers-only process's own) can serve them. Liveness
 * is answering at all: the process serves and its event loop turns, whatever its services do.
 * Readiness is the server's (see `serverReadiness`): 503 before it has started, while an
 * essential service is down, and from the moment it begins to stop, before its connections drain.
 */
export function probeResponder(options: ProbeOptions): ProbeResponder {
  return (req, res) => {
    const probe = probeOf(req);
    if (!probe) return false;
    options.access.watch(req, res, assignRequestId(req, res), performance.now());
    const closing = options.closing();
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", PROBE_METHODS);
      answer(req, res, 405, { status: "method not allowed", allow: PROBE_METHODS }, closing);
      return true;
    }
    if (probe === "live") {
      answer(req, res, 200, { status: "ok" }, closing);
      return true;
    }
    options.readiness().then(
      (readiness) => {
        if (readiness.ready) answer(req, res, 200, { status: "ok" }, options.closing());
        else answer(req, res, 503, { status: "unready", reason: readiness.reason }, options.closing());
      },
      () => answer(req, res, 503, { status: "unready", reason: "readiness could not be checked" }, options.closing()),
    );
    return true;
  };
}
