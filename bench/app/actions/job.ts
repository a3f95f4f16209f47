import { Action } from "herald";
import { jobInputs, TASK_QUEUE } from "../../shared/job";

@Action({ name: "bench:job", description: "A trivial background job", inputs: jobInputs, task: { queue: TASK_QUEUE } })
export class BenchJob {
  async run(params: { n: number }) {
    return { n: params.n };
  }
}
