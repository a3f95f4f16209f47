import { z } from "zod";
import { {{heraldImports}} } from "herald";

{{decorator}}
export class {{className}} implements Action {
  name = "{{name}}";
  description = "{{description}}";{{transports}}
  // The scheduler runs a recurring task without params, so every input needs a default.
  inputs = z.object({
    who: z.string().min(1).default("the scheduler").describe("Who is asking; replace with this task's own inputs"),
  });
  outputs = z.object({
    message: z.string().describe("The greeting; replace with what this action returns"),
  });

  async run(params: ActionParams<{{className}}>) {
    return { message: `Hello ${params.who}, from {{name}}` };
  }
}
