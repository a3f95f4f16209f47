import { injectable } from "tsyringe";
import { appVersion } from "../core/app-manifest";
import { RUN_MODE } from "../core/constants";
import type { Initializer } from "../core/initializer";
import { HeraldServer } from "../core/server";
import { computeActionsHash } from "../contract/actions-hash";
import { clientRoutes } from "../contract/client-routes";
import { generateOpenApiSchemas, rememberInputJsonSchemas } from "../contract/json-schema";
import { loadSchemaCache, openApiCachePath, responsesCurrent } from "../contract/schema-cache";
import { readApiPrefix } from "./api-prefix";
import { buildOpenApiDocument } from "./document";
import { jsonDocumentMount } from "./document-mount";
import { referencePageMount } from "./reference-page";

/**
 * Builds the OpenAPI document at boot (from the schema cache when it matches the actions, by
 * generating the schemas otherwise; with the response schemas `herald build` derived from `run`'s
 * return type while the files they came from are unchanged) and asks the web transport to serve it at
 * `<prefix>/openapi.json`, with the API reference page at `<prefix>/docs` and the routes
 * `herald/client` calls by at `<prefix>/routes.json`.
 */
@injectable()
export class OpenApiInitializer implements Initializer {
  readonly name = "openapi";
  readonly runModes = [RUN_MODE.server];

  constructor(private readonly server: HeraldServer) {}

  async initialize(): Promise<void> {
    const { server } = this;
    const prefix = readApiPrefix(server.config);
    const cachePath = openApiCachePath(server.app.root);
    // The whole registry, as `herald build` hashes it, so that the cache it writes matches.
    const cache = await loadSchemaCache(cachePath, computeActionsHash(server.registry));
    const cached = cache?.schemas;
    if (cached) rememberInputJsonSchemas(server.registry, cached);
    // Generated now when there is no cache, so that an inconvertible schema fails the boot.
    const schemas = cached ?? generateOpenApiSchemas(server.registry);
    const documentPath = `${prefix}/openapi.json`;
    const buildDocument = () => {
      const derived = cache && Object.keys(cache.responses).length > 0 ? cache : undefined;
      const current = derived !== undefined && responsesCurrent(server.app.root, derived);
      if (derived && !current) server.logger.warn("response schemas from herald build are out of date; run herald build again");
      const responses = current ? derived.responses : undefined;
      const document = buildOpenApiDocument(server.registry, {
        prefix,
        title: server.config.name,
        version: appVersion(server.app.root),
        schemas,
        ...(responses ? { responses } : {}),
        globalMiddleware: server.dispatcher.globalMiddleware,
      });
      server.logger.debug({ paths: Object.keys(document.paths ?? {}).length }, "OpenAPI document built");
      return document;
    };
    const referencePath = `${prefix}/docs`;
    server.httpMounts.push(
      jsonDocumentMount(documentPath, buildDocument, server.codec),
      jsonDocumentMount(`${prefix}/routes.json`, () => clientRoutes(server.registry, prefix), server.codec),
      referencePageMount({
        path: referencePath,
        documentUrl: documentPath,
        title: server.config.name,
        codec: server.codec,
      }),
    );
    server.entryPoints.apiReference = referencePath;
    server.entryPoints.openApiDocument = documentPath;
    server.logger.debug({ schemas: cached ? `cache ${cachePath}` : "generated" }, "OpenAPI schemas ready");
  }
}
