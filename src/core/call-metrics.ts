import type { Attributes, Histogram, Meter } from "@opentelemetry/api";
import { ATTR_ERROR_TYPE, ATTR_RPC_METHOD, ATTR_RPC_SYSTEM_NAME, METRIC_RPC_SERVER_CALL_DURATION } from "@opentelemetry/semantic-conventions";
import type { ActionPlans } from "./action-plan";
import type { LoggedCall } from "./logged-call";
import type { RegisteredAction } from "./registry";
import { DURATION_BUCKETS } from "./metrics";

/** The transport a call came by (its connection type): no semantic convention names it. */
export const ATTR_HERALD_TRANSPORT = "herald.transport";
/** `rpc.system.name` of every call: Herald's own protocol over each transport. */
export const RPC_SYSTEM = "herald";
/** `rpc.method` of a call naming no action it may call: the convention's value for an unknown method. */
const UNKNOWN_METHOD = "_OTHER";

/**
 * `rpc.server.call.duration` of every action call, by action, transport and outcome (`error.type`
 * on failure), recorded where its request log line is written. The attributes of a call are made
 * once per action, transport and error type, and reused.
 */
export class CallMetrics {
  private readonly duration: Histogram;
  /** An unknown action's: by transport and error type, not by the name the caller sent. */
  private readonly unknown = new Map<string, Attributes>();

  constructor(
    meter: Meter,
    private readonly plans: ActionPlans,
  ) {
    this.duration = meter.createHistogram(METRIC_RPC_SERVER_CALL_DURATION, {
      unit: "s",
      description: "Duration of action calls, by action, transport and error type",
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
  }

  record(registered: RegisteredAction | undefined, transport: string, call: LoggedCall): void {
    const errorType = call.error?.type;
    const cache = registered ? (this.plans.of(registered).callAttributes ??= new Map()) : this.unknown;
    const key = errorType === undefined ? transport : `${transport} ${errorType}`;
    let attributes = cache.get(key);
    if (!attributes) {
      attributes = {
        [ATTR_RPC_SYSTEM_NAME]: RPC_SYSTEM,
        [ATTR_RPC_METHOD]: registered?.name ?? UNKNOWN_METHOD,
        [ATTR_HERALD_TRANSPORT]: transport,
        ...(errorType === undefined ? {} : { [ATTR_ERROR_TYPE]: errorType }),
      };
      cache.set(key, attributes);
    }
    this.duration.record(call.durationMs / 1000, attributes);
  }
}
