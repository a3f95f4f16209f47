import express, { RequestHandler } from "express";
import type { HttpMount } from "../../core/http-mount";

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

/**
 * Serves what other parts registered in `server.httpMounts`, read at each request since they
 * register during `initialize`. A mount sees the request as it arrived (its URL is not
 * rewritten); the longest matching path wins.
 */
export function serveMounts(mounts: readonly HttpMount[], bodyLimit: number): RequestHandler {
  const parseJson = express.json({ limit: bodyLimit });
  return (req, res, next) => {
    if (mounts.length === 0) return next();
    const path = req.path;
    let mount: HttpMount | undefined;
    for (const candidate of mounts) {
      if (servesPath(candidate, path) && candidate.path.length > (mount?.path.length ?? -1)) mount = candidate;
    }
    if (!mount) return next();
    const handle = async () => mount.handler(req, res);
    if (!mount.parseJson) return handle().catch(next);
    parseJson(req, res, (error?: unknown) => {
      if (error) return next(error);
      handle().catch(next);
    });
  };
}
