import { z } from "zod";

/** The trivial job of the task scenario, the same for Herald and raw bee-queue. */
export const jobInputs = z.object({ n: z.number().int() });

export const TASK_QUEUE = "bench";
