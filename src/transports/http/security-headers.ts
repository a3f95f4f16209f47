import type { IncomingMessage, ServerResponse } from "node:http";
import helmet from "helmet";
import type { RequestOrigin } from "./request-origin";

type HeaderChange = readonly [name: string, value: string | undefined];

/** The headers a helmet middleware sets (or removes, as `undefined`) on a response: they depend on nothing in the request. */
function recordHeaders(middleware: ReturnType<typeof helmet>): HeaderChange[] {
  const changes: [string, string | undefined][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => void changes.push([name, String(value)]),
    removeHeader: (name: string) => void changes.push([name, undefined]),
  };
  middleware({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
  });
  return changes;
}

function apply(res: ServerResponse, changes: readonly HeaderChange[]): void {
  for (const [name, value] of changes) {
    if (value === undefined) res.removeHeader(name);
    else res.setHeader(name, value);
  }
}

/**
 * Helmet's Content-Security-Policy defaults (scripts and everything else from the site itself
 * only, no inline script, no plugins), on every response: the app's static pages and the API
 * reference page run under it, and a JSON answer loaded as a page can run nothing. Two changes:
 * no `upgrade-insecure-requests`, which would send a plain-HTTP deployment's own scripts to an
 * HTTPS port that is not there, and `frame-ancestors 'none'`, as X-Frame-Options says.
 */
const CONTENT_SECURITY_POLICY = {
  useDefaults: true,
  directives: { "upgrade-insecure-requests": null, "frame-ancestors": ["'none'"] },
};

/** Set on a response at once, or given whole to the action path to send with its answer (see held-headers). */
export interface SecurityHeaders {
  apply(req: IncomingMessage, res: ServerResponse): void;
  /** What `apply` sets for this request, as one object, the same for every request of its kind. */
  fixedFor(req: IncomingMessage): Readonly<Record<string, string>>;
}

/** The headers a list of changes leaves set on a fresh response: a removal there removes nothing. */
function setOnFresh(changes: readonly HeaderChange[]): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const [name, value] of changes) if (value !== undefined) headers[name] = value;
  return Object.freeze(headers);
}

/**
 * Helmet's headers (CSP, nosniff, frame deny, no-referrer …). HSTS is only meaningful, and only
 * sent, over HTTPS. Helmet runs once, at startup, and each response gets what it set then: its
 * headers never depend on the request, and its eleven middlewares per request cost more than the
 * rest of the routing.
 */
export function securityHeaders(origin: RequestOrigin): SecurityHeaders {
  const common = recordHeaders(
    helmet({
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      strictTransportSecurity: false,
      xFrameOptions: { action: "deny" },
      referrerPolicy: { policy: "no-referrer" },
    }),
  );
  const hsts = recordHeaders(helmet.strictTransportSecurity() as ReturnType<typeof helmet>);
  const plain = setOnFresh(common);
  const secure = setOnFresh([...common, ...hsts]);
  return {
    apply(req, res) {
      apply(res, common);
      if (origin.secure(req)) apply(res, hsts);
    },
    fixedFor: (req) => (origin.secure(req) ? secure : plain),
  };
}

/**
 * The Content-Security-Policy of a page Herald renders whole (the welcome page), written by helmet
 * from `directives` alone; sent on that page, it replaces the default policy.
 */
export function pageContentSecurityPolicy(directives: Record<string, string[]>): string {
  const changes = recordHeaders(helmet.contentSecurityPolicy({ useDefaults: false, directives }) as ReturnType<typeof helmet>);
  const policy = changes.find(([name]) => name.toLowerCase() === "content-security-policy")?.[1];
  if (policy === undefined) throw new Error("helmet wrote no Content-Security-Policy");
  return policy;
}
