import type { Request, RequestHandler, Response } from "express";
import type { HttpMount } from "../../core/ports/http-mount";
import { type BodyLimits, hasBody, JSON_TYPES, readJsonBody } from "./body";
import type { CrossSiteCheck } from "./cross-site";
import { malformedBody } from "./limited-body";

/** Mount paths without their trailing slashes, worked out once per path rather than per request. */
const prefixes = new Map<string, string>();

function prefixOf(mount: HttpMount): string {
  let prefix = prefixes.get(mount.path);
  if (prefix === undefined) {
    prefix = mount.path.replace(/\/+$/, "");
    prefixes.set(mount.path, prefix);
  }
  return prefix;
}

function servesPath(mount: HttpMount, path: string): boolean {
  const prefix = prefixOf(mount);
  return path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === "/" || prefix === "");
}

/** The mount serving `path`: the longest whose path it is or lies beneath; undefined when none does. */
export function mountServing(mounts: readonly HttpMount[], path: string): HttpMount | undefined {
  let mount: HttpMount | undefined;
  for (const candidate of mounts) {
    if (servesPath(candidate, path) && candidate.path.length > (mount?.path.length ?? -1)) mount = candidate;
  }
  return mount;
}

/**
 * A mount's JSON body, read as an action's is (limit, params bounds on the text, encodings,
 * charset) into `request.body`. An object or an array (a JSON-RPC batch) is taken, any other JSON
 * value is 400; a body of another type is left unread, for the mount to answer.
 */
async function readMountJson(req: Request, res: Response, limits: BodyLimits): Promise<void> {
  if (!hasBody(req) || !req.is(JSON_TYPES)) return;
  const body = await readJsonBody(req, res, limits);
  if (body !== undefined && (body === null || typeof body !== "object")) throw malformedBody("The request body must be a JSON object or array");
  req.body = body;
}

/**
 * Serves what other parts registered in `server.httpMounts`, read at each request since they
 * register during `initialize`. A mount sees the request as it arrived (its URL is not
 * rewritten); the longest matching path wins. A state-changing request from another site is
 * refused as for actions, unless the mount checks origins itself (`checksOrigin`).
 */
export function serveMounts(mounts: readonly HttpMount[], limits: BodyLimits, crossSite: CrossSiteCheck): RequestHandler {
  const serve = async (mount: HttpMount, req: Request, res: Response): Promise<void> => {
    if (mount.parseJson) await readMountJson(req, res, limits);
    await mount.handler(req, res);
  };
  return (req, res, next) => {
    if (mounts.length === 0) return next();
    const mount = mountServing(mounts, req.path);
    if (!mount) return next();
    if (!mount.checksOrigin) crossSite(req);
    return serve(mount, req, res);
  };
}
