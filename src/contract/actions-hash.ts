import { createHash } from "node:crypto";
import { z } from "zod";
import { isStreamingAction } from "../core/streaming";
import { actionsOf, ActionSource } from "./action-source";
import { schemaFingerprint } from "./schema-fingerprint";

/** Raise it whenever the same inputs start to produce different schemas, so old caches miss. */
const SCHEMA_FORMAT = 2;

/**
 * A SHA-256 hex fingerprint of the action set: each action's name, description, route, method,
 * streaming flag and the definition of its `inputs`, plus the zod version and the schema format.
 * Registration order does not matter; any change to one of those does.
 */
export function computeActionsHash(source: ActionSource): string {
  const actions = actionsOf(source).map((action) => ({
    name: action.name,
    description: action.description ?? null,
    method: action.web ? String(action.web.method).toUpperCase() : null,
    route: action.web ? routeText(action.web.route) : null,
    streaming: isStreamingAction(action),
    inputs: action.inputs ? schemaFingerprint(action.inputs) : null,
  }));
  const { major, minor, patch } = z.core.version;
  const payload = JSON.stringify({ format: SCHEMA_FORMAT, zod: `${major}.${minor}.${patch}`, actions });
  return createHash("sha256").update(payload).digest("hex");
}

function routeText(route: string | RegExp): string {
  return route instanceof RegExp ? `regexp:/${route.source}/${route.flags}` : route;
}
