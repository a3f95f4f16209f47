import { z } from "zod";
import { Action, TaskService } from "herald";

/**
 * Queues `count` bench:job jobs through the public TaskService, `concurrency` at a time; run
 * from the CLI before the workers start, so the task scenario times only their draining.
 */
@Action({
  name: "bench:fill",
  description: "Queues bench:job jobs for the task scenario",
  inputs: z.object({ count: z.coerce.number().int().min(1), concurrency: z.coerce.number().int().min(1).default(200) }),
})
export class BenchFill {
  constructor(private readonly tasks: TaskService) {}

  async run(params: { count: number; concurrency: number }) {
    let next = 0;
    const lane = async () => {
      while (next < params.count) await this.tasks.enqueue("bench:job", { n: next++ }, { retries: 0 });
    };
    await Promise.all(Array.from({ length: Math.min(params.concurrency, params.count) }, lane));
    return { queued: params.count };
  }
}
