import type { z } from "zod";
import type { ActionDefinition } from "../core/action";
import { servingTransports } from "../core/action-transports";
import { CONNECTION_TYPE } from "../core/constants";
import { declaredErrors, type DeclaredError } from "../core/declared-errors";
import { ErrorType } from "../core/errors";
import type { ActionMiddleware } from "../core/middleware";
import { isStreamingAction } from "../core/streaming";
import { actionsOf, type ActionSource } from "./action-source";
import { clientRoutes, type ClientRoute } from "./client-routes";
import { httpBodyErrors, takesBody } from "./http-body-errors";
import { mapLocalReferences } from "./relocate-references";
import { inputJsonSchema, outputJsonSchema, type JSONSchema } from "./json-schema";
import { middlewareByAction } from "./middleware-by-action";

/**
 * What the type module reads of a channel: a `ChannelDefinition` (channels/channel.ts) is one,
 * named here by its shape so that the contract depends on core alone.
 */
export interface TypedChannel {
  name: string | RegExp;
  description?: string;
  message?: z.ZodType;
  presenceKey?: unknown;
}

export interface ClientTypesOptions {
  /** The middleware that runs around every action: their declared errors join every action's. */
  globalMiddleware?: readonly ActionMiddleware[];
  /** The app's channels: those with a string name become `AppChannels`. */
  channels?: readonly TypedChannel[];
  /**
   * The schemas `herald build` derived from `run`'s return type, by action name: the `outputs` of
   * an action without `outputs` (`unknown` when it has none here).
   */
  responses?: Record<string, JSONSchema>;
}

/** The module's text, and how many actions it describes. */
export interface ClientTypesModule {
  text: string;
  actions: number;
}

const HEADER = `/**
 * The actions of this app as herald/client sees them: \`createClient<AppActions>({ url })\`.
 * Written by \`herald generate client-types\` (and \`herald build\`) from the actions' inputs,
 * outputs and declared errors: do not edit it, write it again.
 */
`;

/**
 * The type module of the app's actions for herald/client: plain types, computed here once, so an
 * editor using the client never infers them from the server's code. Schemas become TypeScript by
 * openapi-typescript, from the JSON Schemas the OpenAPI document uses (inputs on the input side,
 * outputs and error values as JSON).
 */
export async function renderClientTypes(source: ActionSource, options: ClientTypesOptions = {}): Promise<ClientTypesModule> {
  const ownMiddleware = middlewareByAction(source);
  // Where the client calls each action over HTTP: the routes it fetches, prefix aside.
  const routes = clientRoutes(source, "").actions;
  const actions = actionsOf(source)
    .filter((action) => servingTransports(action).some((transport) => transport === CONNECTION_TYPE.web || transport === CONNECTION_TYPE.websocket))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const schemas: Record<string, JSONSchema> = {};
  const errorSets = new Map<string, string>();
  const entries = actions.map((action) => {
    const chain = [...(options.globalMiddleware ?? []), ...(ownMiddleware.get(action.name) ?? [])];
    return actionEntry(action, chain, routes[action.name], schemas, errorSets, options.responses?.[action.name]);
  });
  const channels = channelEntries(options.channels ?? [], schemas);
  const components = await schemaTypes(schemas);
  const sets = [...errorSets].map(([union, name]) => `export type ${name} =${union};`);
  const text = `${HEADER}\n${components}\nexport interface AppActions {\n${entries.join("\n")}\n}\n\nexport interface AppChannels {\n${channels.join("\n")}\n}\n\n${sets.join("\n\n")}\n`;
  return { text, actions: entries.length };
}

/**
 * One entry a channel of one exact name: what is published on it (its `message` schema, as JSON;
 * `unknown` without) and whether it reports presence. A RegExp family has no name to write.
 */
function channelEntries(channels: readonly TypedChannel[], schemas: Record<string, JSONSchema>): string[] {
  // A family's names are any the RegExp matches: what a client may name is then open.
  const families = channels.some((channel) => typeof channel.name !== "string")
    ? ["  /** A channel of a family named by a RegExp: its messages are what the caller says. */\n  [channel: string]: { message: unknown; presence: boolean };"]
    : [];
  const named = channels
    .flatMap((channel) => (typeof channel.name === "string" ? [{ channel, name: channel.name }] : []))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ channel, name }) => {
      let message = "unknown";
      if (channel.message) message = addComponent(schemas, `channel.${name}`, outputJsonSchema(channel.message));
      return `${docComment(channel.description)}  ${JSON.stringify(name)}: { message: ${message}; presence: ${typeof channel.presenceKey === "function"} };`;
    });
  return [...named, ...families];
}

function docComment(text: string | undefined): string {
  return text ? `  /** ${text.replace(/\*\//g, "* /")} */\n` : "";
}

/**
 * The outputs' schema; without them, the one derived from `run`'s return type (derived only for
 * actions that do not stream, and only when not `{}`), or `unknown`.
 */
function outputsType(action: ActionDefinition, derived: JSONSchema | undefined, schema: (part: string, json: JSONSchema) => string): string {
  if (action.outputs) return schema("outputs", outputJsonSchema(action.outputs));
  return derived ? schema("outputs", derived) : "unknown";
}

/**
 * Each action's errors name one of the error sets, written once each: most actions end with the
 * same set, and a type written once is read once by the compiler.
 */
function actionEntry(
  action: ActionDefinition,
  chain: readonly ActionMiddleware[],
  route: ClientRoute | undefined,
  schemas: Record<string, JSONSchema>,
  errorSets: Map<string, string>,
  derived: JSONSchema | undefined,
): string {
  const name = JSON.stringify(action.name);
  const schema = (part: string, json: JSONSchema) => addComponent(schemas, `${action.name}.${part}`, json);
  // Served over HTTP only where the client can call it: a route a path template can express.
  const transports = servingTransports(action).filter(
    (transport) => transport === CONNECTION_TYPE.websocket || (transport === CONNECTION_TYPE.web && route !== undefined),
  );
  const declared = declaredErrors(action, {
    middleware: chain,
    timeoutApplies: action.timeout !== 0,
    transport: route && takesBody(route.method.toLowerCase()) ? [httpBodyErrors(action.inputs !== undefined)] : [],
  });
  const lines = [
    `    params: ${action.inputs ? schema("params", inputJsonSchema(action.inputs)) : "Record<string, never>"};`,
    `    outputs: ${outputsType(action, derived, schema)};`,
    `    errors: ${errorSetName(errorUnion(declared, (type, json) => sharedSchema(type, json, schemas)), errorSets)};`,
    `    transports: ${transports.map((transport) => JSON.stringify(transport)).join(" | ")};`,
  ];
  if (route) lines.push(`    http: { method: ${JSON.stringify(route.method)}; route: ${JSON.stringify(route.paths[0]!.template)} };`);
  if (isStreamingAction(action)) lines.push("    streaming: true;");
  return `${docComment(action.description)}  ${name}: {\n${lines.join("\n")}\n  };`;
}

/**
 * An error value's schema, shared by every action that declares the same shape: the concurrent-call
 * bound's 429, say, is one type however many actions may end with it. `error.<TYPE>` is the first
 * shape of a type, `error.<TYPE>.2` the second, and so on.
 */
function sharedSchema(type: string, json: JSONSchema, schemas: Record<string, JSONSchema>): string {
  const holds = (name: string) => Object.entries(placed(name, json)).every(([part, schema]) => JSON.stringify(schemas[part]) === JSON.stringify(schema));
  let name = `error.${type}`;
  for (let count = 2; schemas[name] && !holds(name); count++) name = `error.${type}.${count}`;
  return addComponent(schemas, name, json);
}

/**
 * `json` as the component `name`, and each of its `$defs` (a recursive schema's) as the component
 * `<name>.<def>`: openapi-typescript would type `$defs` as one more property. Its references
 * (`#`, `#/$defs/<def>…`) are made to point at those components.
 */
function placed(name: string, json: JSONSchema): Record<string, JSONSchema> {
  const { $defs, ...own } = json;
  const component = `#/components/schemas/${name}`;
  const relocate = (schema: JSONSchema) =>
    mapLocalReferences(schema, (reference) => {
      const def = /^#\/\$defs\/([^/]+)(.*)$/.exec(reference);
      return def ? `${component}.${def[1]}${def[2]}` : component + reference.slice(1);
    }) as JSONSchema;
  const parts: Record<string, JSONSchema> = { [name]: relocate(own) };
  for (const [def, schema] of Object.entries($defs ?? {})) parts[`${name}.${def}`] = relocate(schema as JSONSchema);
  return parts;
}

/** Places `json` as the component `name` (its `$defs` beside it) and gives the type that names it. */
function addComponent(schemas: Record<string, JSONSchema>, name: string, json: JSONSchema): string {
  Object.assign(schemas, placed(name, json));
  return `components["schemas"][${JSON.stringify(name)}]`;
}

function errorSetName(union: string, errorSets: Map<string, string>): string {
  let name = errorSets.get(union);
  if (!name) errorSets.set(union, (name = `ErrorSet${errorSets.size + 1}`));
  return name;
}

function errorUnion(declared: ReadonlyMap<string, DeclaredError>, schema: (type: string, json: JSONSchema) => string): string {
  const members = [...declared.values()]
    // Recorded in the server's log, never sent: the caller it would answer has left.
    .filter((error) => error.type !== ErrorType.CONNECTION_CLIENT_GONE)
    .sort((a, b) => (a.type < b.type ? -1 : 1))
    .map((error) => {
      const head = `type: ${JSON.stringify(error.type)}; status: ${error.status}`;
      if (!error.values?.length) return `{ ${head}; value?: unknown }`;
      const json: JSONSchema = error.values.length === 1 ? outputJsonSchema(error.values[0]!) : { anyOf: error.values.map((value) => outputJsonSchema(value)) };
      return `{ ${head}; value: ${schema(error.type, json)} }`;
    });
  return members.length ? `\n  | ${members.join("\n  | ")}` : " never";
}

type OpenApiTypescriptModule = typeof import("openapi-typescript");
/** The CommonJS build's exports: the converter is its `default`. */
interface OpenApiTypescript {
  default: OpenApiTypescriptModule;
  astToString: OpenApiTypescriptModule["astToString"];
}

/** The `components` interface of the schemas, written by openapi-typescript. */
async function schemaTypes(schemas: Record<string, JSONSchema>): Promise<string> {
  // Loaded here only: generating types is a build step, never part of a boot.
  const { default: openapiTS, astToString } = require("openapi-typescript") as OpenApiTypescript;
  const document = { openapi: "3.1.0", info: { title: "client types", version: "0" }, paths: {}, components: { schemas } };
  const ast = await openapiTS(document as never, { exportType: false, alphabetize: true, rootTypes: false, defaultNonNullable: false });
  const text = astToString(ast);
  // Only the schemas: the document has no paths, operations or webhooks to describe.
  const start = text.indexOf("export interface components");
  const end = text.indexOf("\n}\n", start);
  return text.slice(start, end + 3);
}
