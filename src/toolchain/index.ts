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
export { generateOpenApiSchemas } from "../contract/json-schema";
export type { JSONSchema } from "../contract/json-schema";
export { computeActionsHash } from "../contract/actions-hash";
export { writeSchemasCache, loadCachedSchemas, openApiCachePath, OPENAPI_CACHE_FILE } from "../contract/schema-cache";
