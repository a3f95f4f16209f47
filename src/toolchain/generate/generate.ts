import type { ResolvedAppConfig } from "../../core/app-config";
import { ErrorType, TypedError } from "../../core/errors";
import { createGeneratorContext } from "./generator-context";
import { generatorsFor } from "./generators";
import { parseName } from "./names";
import { planFiles, WriteOptions, writePlannedFiles } from "./write-files";

export interface GenerateRequest extends WriteOptions {
  type: string;
  name: string;
  /** false (`--no-test`) leaves out the files a generator marks as tests. */
  test?: boolean;
  /** Every parsed flag, for the generators' own options. */
  options?: Readonly<Record<string, unknown>>;
}

/** Runs one generator for the app and returns the report to print. */
export async function generate(app: ResolvedAppConfig, request: GenerateRequest): Promise<string> {
  const generators = generatorsFor(app.plugins);
  const generator = generators.find((candidate) => candidate.type === request.type);
  if (!generator) {
    throw new TypedError({
      message: `Unknown generator type "${request.type}"; valid types: ${generators.map((g) => g.type).join(", ")}`,
      type: ErrorType.CONNECTION_ACTION_PARAM_VALIDATION,
      key: "type",
      value: request.type,
    });
  }
  const names = parseName(request.name, generator.nameShape ?? "module", generator.reservedNames);
  const files = await generator.generate(createGeneratorContext(names, app, request.options ?? {}));
  const kept = request.test === false ? files.filter((file) => !file.test) : files;
  return writePlannedFiles(planFiles(app.root, kept, request), request);
}
