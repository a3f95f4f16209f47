import { Action, HTTP_METHOD } from "herald";
import { helloResponse } from "../../shared/hello";

@Action({
  name: "bench:hello",
  description: "Answers {\"hello\":\"world\"} with no inputs: the work of the hello scenario",
  web: { route: "/bench/hello", method: HTTP_METHOD.GET },
})
export class BenchHello {
  async run() {
    return helloResponse();
  }
}
