import type { RouteParam } from "../../core/ports/route-params";

/** What a generated action's inputs, greeting and test call hold. */
export interface GeneratedInputs {
  inputFields: string;
  /** The template literal's text naming who or what was asked for. */
  greeted: string;
  sampleParams: string;
  sampleGreeted: string;
}

const PLACEHOLDER: GeneratedInputs = {
  inputFields: `    who: z.string().min(1).describe("Who is asking; replace with this action's own inputs"),`,
  greeted: "${params.who}",
  sampleParams: `{ who: "Ada" }`,
  sampleGreeted: "Ada",
};

function field(param: RouteParam): string {
  const type = param.wildcard ? "z.array(z.string().min(1)).min(1)" : "z.string().min(1)";
  const marker = param.wildcard ? "*" : ":";
  return `    ${param.name}: ${type}${param.optional ? ".optional()" : ""}.describe("The route's ${marker}${param.name}"),`;
}

/**
 * A generated action's inputs: its route's params, each declared as the router hands it over (a
 * wildcard's segments as an array), so none is dropped before run; the placeholder `who` when
 * the route has no param that every call carries.
 */
export function generatedInputs(params: readonly RouteParam[]): GeneratedInputs {
  const required = params.filter((param) => !param.optional);
  if (required.length === 0) {
    if (params.length === 0) return PLACEHOLDER;
    return { ...PLACEHOLDER, inputFields: [PLACEHOLDER.inputFields, ...params.map(field)].join("\n") };
  }
  const sample = (param: RouteParam) => (param.wildcard ? ["docs", "intro"] : "42");
  return {
    inputFields: params.map(field).join("\n"),
    greeted: required.map((param) => (param.wildcard ? `\${params.${param.name}.join("/")}` : `\${params.${param.name}}`)).join(" "),
    sampleParams: `{ ${required.map((param) => `${param.name}: ${JSON.stringify(sample(param))}`).join(", ")} }`,
    sampleGreeted: required.map((param) => [sample(param)].flat().join("/")).join(" "),
  };
}
