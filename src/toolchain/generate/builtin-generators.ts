import { join } from "node:path";
import { HTTP_METHOD } from "../../core/constants";
import { readCronExpression } from "../../core/cron-expression";
import { ErrorType, TypedError } from "../../core/errors";
import { routeParams, type RouteParam } from "../../core/ports/route-params";
import { pathToRoot } from "./generator-context";
import { resourceGenerator } from "./resource-generator";
import { generatedInputs } from "./route-inputs";
import type { GeneratedFile, GeneratorContext, PluginGenerator } from "./plugin-generator";
import { renderSchematic } from "./templates";

/**
 * Names of the framework's own initializers: an app initializer with one of them would clash
 * at boot. test/toolchain/generate.test.ts checks this list against the real ones.
 */
export const BUILTIN_INITIALIZER_NAMES = ["web", "websocket", "sessions", "tasks", "task-workers", "openapi", "mcp", "channels", "rate-limit", "idempotency", "oauth", "cli-socket", "traces", "database-pool-metrics", "metrics-port", "database"];

function badOption(key: string, value: unknown, reason: string): never {
  throw new TypedError({
    message: `Invalid --${key} ${String(value)}: ${reason}. Nothing was written.`,
    type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
    key,
    value,
  });
}

function sentence(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The source file and its test, the test rendered with where the app root and the source are.
 * The templates are `schematics/<folder>/<template>.ts.tpl` and `<template>.test.ts.tpl`.
 */
function sourceAndTest(
  context: GeneratorContext,
  folder: string,
  schematic: string,
  values: Record<string, string>,
  template = schematic,
): GeneratedFile[] {
  const sourcePath = join(folder, ...context.names.fileSegments) + ".ts";
  const testPath = context.testPathFor(sourcePath);
  const all = {
    ...values,
    appRoot: pathToRoot(testPath, context.app.root),
    importPath: context.importPath(testPath, sourcePath),
  };
  return [
    { path: sourcePath, content: renderSchematic(`${schematic}/${template}.ts.tpl`, all) },
    { path: testPath, content: renderSchematic(`${schematic}/${template}.test.ts.tpl`, all), test: true },
  ];
}

/** A task's members: only the task workers and the CLI may call it, never a network caller. */
const TASK_TRANSPORTS = `
  // Run by the task workers, or by hand from the CLI: no network caller reaches it.
  transports = [CONNECTION_TYPE.task, CONNECTION_TYPE.cli];`;

/** The generated test's proof of it: a network caller finds no such action. */
const TASK_TRANSPORT_TESTS = `
test("{{name}} is unknown to network callers: only the task workers and the CLI may call it", async () => {
  const result = await testServer().runAction("{{name}}", {}, new Connection({ type: CONNECTION_TYPE.websocket }));
  expect(result.error?.type).toBe(ErrorType.CONNECTION_ACTION_NOT_FOUND);
});
`;

function actionValues(
  context: GeneratorContext,
  decorator: string,
  decoratorImports: string[],
  transports = "",
  transportTests = "",
  params: readonly RouteParam[] = [],
): Record<string, string> {
  const { names } = context;
  return {
    ...generatedInputs(params),
    name: names.name,
    className: names.pascal,
    description: sentence(names.segments.join(" ").replace(/[-_]/g, " ")),
    decorator,
    transports,
    transportTests: transportTests.replaceAll("{{name}}", names.name),
    heraldImports: [...decoratorImports, "type Action", "type ActionParams"].join(", "),
  };
}

function webDecorator(context: GeneratorContext): { decorator: string; imports: string[]; params: RouteParam[] } {
  const { options, names } = context;
  if (options.web === false) return { decorator: "@injectable()", imports: ["injectable"], params: [] };
  const method = String(options.method ?? HTTP_METHOD.POST).toUpperCase();
  if (!(method in HTTP_METHOD)) badOption("method", options.method, `use one of ${Object.values(HTTP_METHOD).join(", ")}`);
  const route = options.route === undefined ? `/${names.fileSegments.join("/")}` : String(options.route);
  if (!/^\/[^\s"'`\\]*$/.test(route)) badOption("route", route, 'a route starts with "/" and has no spaces, quotes or backslashes');
  let params: RouteParam[];
  try {
    params = routeParams(route);
  } catch (error) {
    badOption("route", route, (error as Error).message);
  }
  return {
    decorator: `@Web({ route: ${JSON.stringify(route)}, method: HTTP_METHOD.${method} })`,
    imports: ["HTTP_METHOD", "Web"],
    params,
  };
}

function taskDecorator(context: GeneratorContext): string {
  const queue = String(context.options.queue ?? "default");
  if (!/^[a-zA-Z0-9:._-]{1,100}$/.test(queue)) badOption("queue", queue, 'use letters, digits, ":", ".", "_" or "-"');
  const { frequency, cron, timezone } = context.options;
  if (frequency !== undefined && cron !== undefined) badOption("cron", cron, "give --frequency or --cron, not both");
  if (timezone !== undefined && cron === undefined) badOption("timezone", timezone, "a time zone reads a --cron expression; give one");
  if (cron !== undefined) return `@Task({ queue: ${JSON.stringify(queue)}, ${cronOptions(String(cron), timezone === undefined ? undefined : String(timezone))} })`;
  if (frequency === undefined) return `@Task({ queue: ${JSON.stringify(queue)} })`;
  if (typeof frequency !== "number" || !Number.isInteger(frequency) || frequency <= 0) {
    badOption("frequency", frequency, "give a whole number of milliseconds above 0");
  }
  return `@Task({ queue: ${JSON.stringify(queue)}, frequency: ${frequency} })`;
}

/** `cron: "…"` (and `timezone: "…"`), once croner, which the app's boot will ask, reads them. */
function cronOptions(cron: string, timezone: string | undefined): string {
  try {
    readCronExpression(cron, timezone);
  } catch (error) {
    badOption(timezone === undefined ? "cron" : "cron/--timezone", timezone === undefined ? cron : `${cron} in ${timezone}`, (error as Error).message);
  }
  return `cron: ${JSON.stringify(cron)}${timezone === undefined ? "" : `, timezone: ${JSON.stringify(timezone)}`}`;
}

const actionGenerator: PluginGenerator = {
  type: "action",
  description: "An action: name, zod inputs and run, served on every transport (with a web route)",
  nameShape: "action",
  options: {
    method: { type: "string", describe: "action: HTTP method of its web route (default POST)", choices: Object.values(HTTP_METHOD) },
    route: { type: "string", describe: "action: its web route (default /<group>/<verb>)" },
    web: { type: "boolean", describe: "action: give it a web route (--no-web: CLI, WebSocket, MCP only)" },
  },
  generate(context) {
    const { decorator, imports, params } = webDecorator(context);
    return sourceAndTest(context, context.app.actions, "action", actionValues(context, decorator, imports, "", "", params));
  },
};

const taskGenerator: PluginGenerator = {
  type: "task",
  description: "An action with a task: run by the task workers on a queue, once, every --frequency ms or at each --cron tick",
  nameShape: "action",
  options: {
    queue: { type: "string", describe: 'task: its queue (default "default")' },
    frequency: { type: "number", describe: "task: make it recurring, every this many milliseconds" },
    cron: { type: "string", describe: 'task: make it recurring at the ticks of this cron expression ("0 3 * * *")' },
    timezone: { type: "string", describe: "task: the IANA time zone --cron is read in (default: the process's own)" },
  },
  generate(context) {
    const values = actionValues(context, taskDecorator(context), ["CONNECTION_TYPE", "Task"], TASK_TRANSPORTS, TASK_TRANSPORT_TESTS);
    // The scheduler runs a recurring task without params: its inputs need defaults, or the app cannot boot.
    const template = context.options.frequency === undefined && context.options.cron === undefined ? "action" : "recurring-task";
    return sourceAndTest(context, context.app.actions, "action", values, template);
  },
};

const moduleName = (context: GeneratorContext) => context.names.fileSegments.join("-");

const initializerGenerator: PluginGenerator = {
  type: "initializer",
  description: "An initializer: boot work (initialize, start, stop) run in priority order",
  reservedNames: BUILTIN_INITIALIZER_NAMES,
  generate: (context) =>
    sourceAndTest(context, context.app.initializers, "initializer", {
      className: `${context.names.pascal}Initializer`,
      initializerName: moduleName(context),
    }),
};

/** What a global middleware's class says of itself, and its generated test's proof of it. */
const GLOBAL_MEMBERS = `
  static readonly global = true;
  static readonly priority = 1000;
`;
const LISTED_USAGE = ` * Runs around the actions that list it (\`middleware: [{{className}}]\`). Give the class
 * \`static readonly global = true\` to run it around every action instead. Listed by no action and
 * not global, it is not built: the boot warns about it.`;
const GLOBAL_USAGE = ` * Runs around every action of the app, Herald's own included, in the order of its priority
 * among the global middleware (lower first).`;
const GLOBAL_TEST = `
test("{{className}} runs around every action: it is marked global on the class", () => {
  expect({{className}}.global).toBe(true);
});
`;

const middlewareGenerator: PluginGenerator = {
  type: "middleware",
  description: "Action middleware: runBefore and runAfter around the actions that list it, or every action (--global)",
  options: {
    global: { type: "boolean", describe: "middleware: run it around every action (static global = true)" },
  },
  generate(context) {
    const global = context.options.global === true;
    const className = `${context.names.pascal}Middleware`;
    return sourceAndTest(context, context.app.middleware, "middleware", {
      className,
      middlewareName: moduleName(context),
      usage: (global ? GLOBAL_USAGE : LISTED_USAGE).replaceAll("{{className}}", className),
      globalMembers: global ? GLOBAL_MEMBERS : "",
      globalTest: global ? GLOBAL_TEST.replaceAll("{{className}}", className) : "",
    });
  },
};

const channelGenerator: PluginGenerator = {
  type: "channel",
  description: "A channel: who may subscribe to it over WebSocket",
  generate: (context) =>
    sourceAndTest(context, context.app.channels, "channel", {
      className: `${context.names.pascal}Channel`,
      channelName: context.names.fileSegments.join(":"),
    }),
};

const serviceGenerator: PluginGenerator = {
  type: "service",
  description: "A service, one instance per server, given to actions, initializers and other services through their constructors",
  generate: (context) =>
    sourceAndTest(context, context.app.services, "service", { className: `${context.names.pascal}Service` }),
};

const testGenerator: PluginGenerator = {
  type: "test",
  description: "A Jest test that boots the app on a free port",
  generate(context) {
    const path = join(context.app.tests, ...context.names.fileSegments) + ".test.ts";
    const content = renderSchematic("test/test.test.ts.tpl", {
      appRoot: pathToRoot(path, context.app.root),
      description: sentence(context.names.segments.join(" ").replace(/[-_]/g, " ")),
    });
    // A test is the whole point here, so --no-test does not drop it.
    return [{ path, content }];
  },
};

export const BUILTIN_GENERATORS: readonly PluginGenerator[] = [
  actionGenerator,
  initializerGenerator,
  middlewareGenerator,
  channelGenerator,
  serviceGenerator,
  taskGenerator,
  testGenerator,
  resourceGenerator,
];
