import { z } from "zod";
import { {{heraldImports}} } from "herald";

{{decorator}}
export class {{className}} implements Action {
  name = "{{name}}";
  description = "{{description}}";{{transports}}
  inputs = z.object({
{{inputFields}}
  });
  outputs = z.object({
    message: z.string().describe("The greeting; replace with what this action returns"),
  });
  // The typed errors run may throw, beyond Herald's own (docs/actions.md, "Declared errors"):
  // errors = { CONNECTION_NOT_FOUND: z.object({ id: z.number() }), CONNECTION_CONFLICT: true };

  async run(params: ActionParams<{{className}}>) {
    return { message: `Hello {{greeted}}, from {{name}}` };
  }
}
