import { Pool } from "pg";
import { z } from "zod";
import { Action, HTTP_METHOD, TaskService, Web } from "herald";

/** Records that it ran; at least once per job, so a repeat changes nothing. */
@Action({ name: "jobs:tally", inputs: z.object({ tag: z.string().min(1) }), task: { queue: "soak" } })
export class TallyJob {
  constructor(private readonly pool: Pool) {}

  async run(params: { tag: string }) {
    await this.pool.query("INSERT INTO soak_job_runs (tag) VALUES ($1) ON CONFLICT (tag) DO NOTHING", [params.tag]);
    return { tallied: params.tag };
  }
}

@Web({ route: "/jobs", method: HTTP_METHOD.POST })
@Action({ name: "jobs:enqueue", inputs: z.object({ tag: z.string().min(1) }) })
export class EnqueueTally {
  constructor(private readonly tasks: TaskService) {}

  async run(params: { tag: string }) {
    return { jobId: await this.tasks.enqueue("jobs:tally", { tag: params.tag }) };
  }
}
