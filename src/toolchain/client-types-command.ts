import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { isChannelLike } from "../channels/channel";
import type { HeraldServer } from "../core/server";
import { renderClientTypes } from "../contract/client-types";
import type { JSONSchema } from "../contract/json-schema";

/** Where the client type module goes, relative to the app root, unless `--out` says otherwise. */
export const CLIENT_TYPES_FILE = "herald-client.d.ts";

export interface ClientTypesReport {
  /** The module written, relative to the app root. */
  file: string;
  actions: number;
}

/**
 * `herald generate client-types` and `herald build`: writes the type module herald/client is typed
 * by. `responses`: the 200 schemas derived from `run`'s return type (`herald build` passes those it
 * just derived); derived here when absent.
 */
export async function writeClientTypes(server: HeraldServer, out?: string, responses?: Record<string, JSONSchema>): Promise<ClientTypesReport> {
  const path = resolve(server.app.root, out ?? CLIENT_TYPES_FILE);
  if (!responses) {
    // Deferred: only this path loads the TypeScript compiler.
    const { deriveResponseSchemas } = require("../contract/derived-responses") as typeof import("../contract/derived-responses");
    responses = deriveResponseSchemas(server.app.root, server.registry.list()).responses;
  }
  const { text, actions } = await renderClientTypes(server.registry, {
    globalMiddleware: server.dispatcher.globalMiddleware,
    channels: server.channels.filter(isChannelLike),
    responses,
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return { file: relative(server.app.root, path), actions };
}

/** What the CLI prints once the module is written. */
export function clientTypesWritten(report: ClientTypesReport): string {
  return `wrote ${report.file}: the types of ${report.actions} action(s) for herald/client\n`;
}
