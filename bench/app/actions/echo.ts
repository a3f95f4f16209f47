import { Action, HTTP_METHOD } from "herald";
import { echoInputs, echoResponse, type EchoParams } from "../../shared/echo";

@Action({
  name: "bench:echo",
  description: "Parses a small input and answers it as JSON: the work of the HTTP and WebSocket scenarios",
  inputs: echoInputs,
  web: { route: "/bench/echo", method: HTTP_METHOD.GET },
})
export class BenchEcho {
  async run(params: EchoParams) {
    return echoResponse(params);
  }
}
