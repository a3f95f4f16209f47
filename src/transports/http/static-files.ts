import express, { RequestHandler } from "express";

/**
 * The app's public folder at `/`, with ETag, Last-Modified and `Cache-Control: public,
 * max-age=…`. A path that climbs out of the folder, or names a dotfile, is not served.
 */
export function staticFiles(directory: string, maxAgeSeconds: number): RequestHandler {
  return express.static(directory, {
    maxAge: maxAgeSeconds * 1000,
    dotfiles: "ignore",
    index: ["index.html"],
    fallthrough: true,
  });
}
