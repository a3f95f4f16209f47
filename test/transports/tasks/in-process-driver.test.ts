import { InProcessDriver } from "../../../src/transports/tasks/in-process-driver";
import { describeDriverContract } from "./driver-contract";

describeDriverContract("in-process", () => new InProcessDriver({ resultTtlMs: 60_000 }));
