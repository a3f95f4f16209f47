import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type * as TS from "typescript";
import type { RegisteredAction } from "../core/registry";
import { isStreamingAction } from "../core/streaming";
import { sourceHash } from "../core/source-hash";
import type { JSONSchema } from "./json-schema";
import { typeToJsonSchema } from "./type-to-json-schema";

export interface DerivedResponses {
  /** The 200 schema of each action without `outputs` whose return type could be expressed (not `{}`). */
  responses: Record<string, JSONSchema>;
  /** Every source file the schemas were derived from (relative to the app root) and its hash. */
  sources: Record<string, string>;
  /** One line per action whose return type could not be expressed in full, naming it and the type. */
  warnings: string[];
}

const TYPESCRIPT_SOURCE = /\.[cm]?tsx?$/;
const DECLARATION = /\.d\.[cm]?tsx?$/;

/**
 * `herald build`: the 200 response schema of each action that has no `outputs` and does not
 * stream, from the return type of its `run` (declared or inferred), by one TypeScript program over
 * the actions' files with the app's tsconfig.json. Only a build step loads the compiler: a booting
 * server reads what this gives from the schema cache.
 */
export function deriveResponseSchemas(appRoot: string, actions: readonly RegisteredAction[]): DerivedResponses {
  const candidates = actions.filter(
    (entry) =>
      !entry.action.outputs &&
      !isStreamingAction(entry.action) &&
      isAbsolute(entry.source) &&
      TYPESCRIPT_SOURCE.test(entry.source) &&
      !DECLARATION.test(entry.source) &&
      existsSync(entry.source),
  );
  const result: DerivedResponses = { responses: {}, sources: {}, warnings: [] };
  if (!candidates.length) return result;

  // Loaded here only: deriving schemas is a build step, never part of a boot.
  let ts: typeof TS;
  try {
    ts = require("typescript") as typeof TS;
  } catch {
    result.warnings.push("typescript is not installed beside the app: no response schema is derived from run's return type (npm install --save-dev typescript)");
    return result;
  }
  const program = ts.createProgram({
    rootNames: [...new Set(candidates.map((entry) => resolve(entry.source)))],
    options: compilerOptions(ts, appRoot),
  });
  const checker = program.getTypeChecker();

  for (const entry of candidates) {
    const file = program.getSourceFile(resolve(entry.source));
    const className = entry.action.constructor?.name;
    const declaration = file && className ? findClass(ts, file, className) : undefined;
    if (!declaration) {
      result.warnings.push(`${entry.name}: no class ${className ?? "(anonymous)"} found in ${relative(appRoot, entry.source)}; its 200 response stays {}`);
      continue;
    }
    const schema = runResponseSchema(ts, checker, declaration, entry.name, result.warnings);
    if (schema && Object.keys(schema).length) result.responses[entry.name] = schema;
  }

  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || /[\\/]node_modules[\\/]/.test(file.fileName)) continue;
    result.sources[relative(appRoot, file.fileName)] = sourceHash(readFileSync(file.fileName, "utf8"));
  }
  return result;
}

/** The 200 schema of one action class: its `run`'s return type, awaited. */
function runResponseSchema(
  ts: typeof TS,
  checker: TS.TypeChecker,
  declaration: TS.ClassDeclaration,
  actionName: string,
  warnings: string[],
): JSONSchema | undefined {
  const classType = checker.getTypeAtLocation(declaration);
  const run = classType.getProperty("run");
  if (!run) {
    warnings.push(`${actionName}: its class has no run member the compiler can see; its 200 response stays {}`);
    return undefined;
  }
  const runType = checker.getTypeOfSymbolAtLocation(run, declaration);
  const signatures = runType.getCallSignatures();
  if (!signatures.length) {
    warnings.push(`${actionName}: run has no call signature (${checker.typeToString(runType)}); its 200 response stays {}`);
    return undefined;
  }
  const returned = signatures.length === 1 ? signatures[0]!.getReturnType() : undefined;
  if (!returned) {
    warnings.push(`${actionName}: run has overloads; its 200 response stays {}`);
    return undefined;
  }
  const awaited = checker.getAwaitedType(returned) ?? returned;
  const unexpressed: string[] = [];
  const schema = typeToJsonSchema(ts, checker, awaited, unexpressed);
  if (unexpressed.length) {
    const whole = Object.keys(schema).length === 0;
    warnings.push(
      `${actionName}: ${unexpressed.join(", ")} cannot be expressed as JSON Schema; ` +
        (whole ? "its 200 response stays {}" : "that part of its 200 response is {}"),
    );
  }
  return schema;
}

function findClass(ts: typeof TS, file: TS.SourceFile, name: string): TS.ClassDeclaration | undefined {
  let found: TS.ClassDeclaration | undefined;
  const visit = (node: TS.Node): void => {
    if (found) return;
    if (ts.isClassDeclaration(node) && node.name?.text === name) {
      found = node;
      return;
    }
    // Top-level classes, and those inside namespaces or blocks; not function bodies' locals.
    if (ts.isSourceFile(node) || ts.isModuleDeclaration(node) || ts.isModuleBlock(node) || ts.isBlock(node)) ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The app's own tsconfig.json (the one beside herald.config.ts), or strict defaults with decorators. */
function compilerOptions(ts: typeof TS, appRoot: string): TS.CompilerOptions {
  const defaults: TS.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    // Without the DOM's types, which are most of the default library's and no server's.
    lib: ["lib.es2022.d.ts"],
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true,
    experimentalDecorators: true,
    esModuleInterop: true,
    skipLibCheck: true,
    // Node's own types (Buffer…), not every @types package installed: those of jest alone double the time.
    types: ["node"],
  };
  const configPath = ts.findConfigFile(appRoot, ts.sys.fileExists, "tsconfig.json");
  if (!configPath || resolve(configPath) !== join(resolve(appRoot), "tsconfig.json")) return defaults;
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) return defaults;
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, appRoot, undefined, configPath);
  // Only types matter here: nothing is emitted, and a project-wide setting must not hide the actions' files.
  return { ...parsed.options, noEmit: true, skipLibCheck: true };
}
