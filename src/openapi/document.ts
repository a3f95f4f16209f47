import type { OpenApiBuilder, OpenAPIObject, OperationObject, PathItemObject, ReferenceObject, SchemaObject, ServerObject } from "openapi3-ts/oas31";
import type { ActionDefinition } from "../core/action";
import { allowsTransport } from "../core/action-transports";
import { CONNECTION_TYPE } from "../core/constants";
import type { ActionMiddleware } from "../core/middleware";
import { actionsOf, ActionSource } from "../contract/action-source";
import { generateOpenApiSchemas, JSONSchema } from "../contract/json-schema";
import { middlewareByAction } from "../contract/middleware-by-action";
import { relocateReferences } from "../contract/relocate-references";
import { documentRoute } from "../contract/route-path";
import { DEFAULT_API_PREFIX, normalizeApiPrefix } from "./api-prefix";
import { ERROR_BODY_COMPONENT, errorBodyJsonSchema, errorResponseComponents } from "./error-responses";
import { buildOperation, PlacedInputs } from "./operation";
import { securitySchemes } from "./security";

export interface OpenApiDocumentOptions {
  /** The path prefix actions are served under; default `/api`. */
  prefix?: string;
  /** `info.title`; default `Herald API`. */
  title?: string;
  /** `info.version`; default `0.0.0`. */
  version?: string;
  /** Text placed before the document's own notes in `info.description`. */
  description?: string;
  /** Input schemas by action name, from `generateOpenApiSchemas` or the cache; generated when absent. */
  schemas?: Record<string, JSONSchema>;
  /**
   * The 200 schemas of actions without `outputs`, by action name, as `herald build` derived them
   * from `run`'s return type (the schema cache's `responses`); an action missing here answers `{}`.
   */
  responses?: Record<string, JSONSchema>;
  /** `servers`; default one relative URL, `/`: the origin the document is fetched from. */
  servers?: ServerObject[];
  /** The middleware that runs around every action: their `security` applies to every operation. */
  globalMiddleware?: readonly ActionMiddleware[];
}

/** The extension listing the web actions whose route no OpenAPI path can express. */
export const UNLISTED_ROUTES_EXTENSION = "x-herald-unlisted-routes";

/** The OpenAPI 3.1 document of every action that has a `web` route. */
export function buildOpenApiDocument(source: ActionSource, options: OpenApiDocumentOptions = {}): OpenAPIObject {
  const prefix = normalizeApiPrefix(options.prefix ?? DEFAULT_API_PREFIX);
  const webActions = actionsOf(source).filter((action) => action.web && allowsTransport(action, CONNECTION_TYPE.web));
  const schemas = options.schemas ?? generateOpenApiSchemas(webActions);
  // Required here: openapi3-ts loads a YAML library, which a server that never serves its document does not need.
  const { OpenApiBuilder: Builder } = require("openapi3-ts/oas31") as typeof import("openapi3-ts/oas31");
  const builder = Builder.create({
    openapi: "3.1.0",
    info: { title: options.title ?? "Herald API", version: options.version ?? "0.0.0" },
    // Relative, so the document is right on every host and port it is served from.
    servers: options.servers ?? [{ url: "/", description: "The server this document is served by" }],
    paths: {},
    components: { schemas: { [ERROR_BODY_COMPONENT]: errorBodyJsonSchema() }, responses: errorResponseComponents() },
  });
  const paths = new Map<string, PathItemObject>();
  const unlisted: string[] = [];
  const ownMiddleware = middlewareByAction(source);
  const chainOf = (action: ActionDefinition) => [...(options.globalMiddleware ?? []), ...(ownMiddleware.get(action.name) ?? [])];

  for (const action of webActions) {
    const method = String(action.web!.method).toLowerCase() as keyof PathItemObject & string;
    const routes = documentRoute(action.web!.route);
    if ("unlisted" in routes) {
      unlisted.push(`${action.name} (${method.toUpperCase()} ${routes.unlisted})`);
      continue;
    }
    const inputs = placeInputs(builder, action, schemas[action.name]);
    routes.paths.forEach((route, index) => {
      const template = route.template === "/" && prefix ? prefix : `${prefix}${route.template}`;
      const item = paths.get(template) ?? {};
      if (item[method]) {
        unlisted.push(`${action.name} (${method.toUpperCase()} ${template}: already documented for another action)`);
        return;
      }
      const operationId = index === 0 ? action.name : `${action.name}_${index + 1}`;
      item[method] = buildOperation(action, method, route, inputs, operationId, chainOf(action), options.responses?.[action.name]);
      paths.set(template, item);
    });
  }

  for (const [template, item] of [...paths].sort(([a], [b]) => (a < b ? -1 : 1))) builder.addPath(template, item);
  for (const [tag, actions] of operationTags(paths.values())) builder.addTag({ name: tag, description: `The ${actions.map((name) => `\`${name}\``).join(", ")} action${actions.length > 1 ? "s" : ""}` });
  for (const [name, scheme] of Object.entries(securitySchemes(webActions.map(chainOf)))) builder.addSecurityScheme(name, scheme);
  builder.addDescription(describe(prefix, options.description, unlisted));
  const document = builder.getSpec();
  if (unlisted.length) document[UNLISTED_ROUTES_EXTENSION] = unlisted;
  return document;
}

/**
 * Every tag the operations use, sorted, with the actions under it: the document lists each one
 * (OpenAPI's top-level `tags`), as linters ask.
 */
function operationTags(items: Iterable<PathItemObject>): [tag: string, actions: string[]][] {
  const tags = new Map<string, Set<string>>();
  for (const item of items) {
    for (const operation of Object.values(item) as OperationObject[]) {
      const action = String(operation.operationId).replace(/_\d+$/, "");
      for (const tag of operation.tags ?? []) tags.set(tag, (tags.get(tag) ?? new Set()).add(action));
    }
  }
  return [...tags].sort(([a], [b]) => (a < b ? -1 : 1)).map(([tag, actions]) => [tag, [...actions].sort()]);
}

/** `user:create` → `user.create.inputs`: component names may not hold a colon. */
export function inputsComponentName(actionName: string): string {
  return `${actionName.replace(/[^A-Za-z0-9_-]/g, ".")}.inputs`;
}

function placeInputs(builder: OpenApiBuilder, action: ActionDefinition, schema: JSONSchema | undefined): PlacedInputs | undefined {
  if (!schema) return undefined;
  const name = inputsComponentName(action.name);
  const pointer = `#/components/schemas/${name}`;
  const placed = relocateReferences(schema, pointer) as SchemaObject;
  builder.addSchema(name, placed);
  return { schema: placed, reference: { $ref: pointer } satisfies ReferenceObject };
}

function describe(prefix: string, lead: string | undefined, unlisted: readonly string[]): string {
  const parts = lead ? [lead] : [];
  parts.push(
    `Every action is served beneath \`${prefix || "/"}\`. A successful call answers 200 with the action's return value as JSON. ` +
      "Every error answers with the `ErrorBody` shape and the status its `type` maps to: an unknown path gives 404 " +
      "(CONNECTION_ACTION_NOT_FOUND) and a known path with another method gives 405 (CONNECTION_METHOD_NOT_ALLOWED) " +
      "with an `Allow` header.",
  );
  if (unlisted.length) {
    parts.push(`These actions are served but cannot be listed as OpenAPI paths: ${unlisted.join("; ")}.`);
  }
  return parts.join("\n\n");
}
