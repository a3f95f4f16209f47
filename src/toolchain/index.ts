import "reflect-metadata";

// The command line, for an app's own entry point
export { buildProgram, runCli } from "../cli-program";
export type { ProgramOptions } from "../transports/cli/program";
export type { CommandOutput } from "./command-output";

// Generators
export { getValidTypes } from "./generate/generators";
export type { GeneratedFile, GeneratorContext, GeneratorOption, PluginGenerator } from "./generate/plugin-generator";
export type { GeneratedNames, NameShape } from "./generate/names";

// The OpenAPI schema cache that `herald build` writes
export { generateOpenApiSchemas } from "../openapi/json-schema";
export type { JSONSchema } from "../openapi/json-schema";
export { computeActionsHash } from "../openapi/actions-hash";
export { writeSchemasCache, loadCachedSchemas, openApiCachePath, OPENAPI_CACHE_FILE } from "../openapi/schema-cache";
