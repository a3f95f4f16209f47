import express, { RequestHandler } from "express";
import type { HttpMount } from "../../core/http-mount";

function servesPath(mount: HttpMount, path: string): boolean {
  const prefix = mount.path.replace(/\/+$/, "");
  return path === prefix || path.startsWith(`${prefix}/`) || prefix === "";
}

/**
 * Serves what other parts registered in `server.httpMounts`, read at each request since they
 * register during `initialize`. A mount sees the request as it arrived (its URL is not
 * rewritten); the longest matching path wins.
 */
export function serveMounts(mounts: readonly HttpMount[], bodyLimit: number): RequestHandler {
  const parseJson = express.json({ limit: bodyLimit });
  return (req, res, next) => {
    let mount: HttpMount | undefined;
    for (const candidate of mounts) {
      if (servesPath(candidate, req.path) && candidate.path.length > (mount?.path.length ?? -1)) mount = candidate;
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
