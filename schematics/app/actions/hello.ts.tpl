import { z } from "zod";
import { HTTP_METHOD, Web, type Action, type ActionParams } from "herald";

@Web({ route: "/hello", method: HTTP_METHOD.GET })
export class HelloSay implements Action {
  name = "hello:say";
  description = "Greets whoever asks";
  inputs = z.object({
    who: z.string().min(1).default("world").describe("Whom to greet"),
  });
  outputs = z.object({ greeting: z.string() });

  async run(params: ActionParams<HelloSay>) {
    return { greeting: `Hello, ${params.who}!` };
  }
}
