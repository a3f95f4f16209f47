import type { IncomingHttpHeaders } from "node:http";
import { abortAbandoned } from "./abandoned-call";

type RequestId = string | number;

/** The in-flight calls of one caller, as a handler sees them. */
export interface CallerCalls {
  track(id: RequestId, controller: AbortController): () => void;
  forget(id: RequestId, controller: AbortController): void;
}

/**
 * The calls running in this process, by caller and JSON-RPC id. A 2025-era client cancels a call
 * with `notifications/cancelled` in a request of its own, which the stateless endpoint serves with
 * a fresh server that never saw the call; this is where that notification finds it. A caller is
 * its address and its `Authorization` header, so one caller cannot cancel another's calls.
 */
export class InFlightCalls {
  private readonly calls = new Map<string, AbortController>();

  static callerOf(remoteAddress: string | undefined, headers: IncomingHttpHeaders): string {
    return `${remoteAddress ?? ""}\n${headers.authorization ?? ""}`;
  }

  forCaller(caller: string): CallerCalls {
    const keyOf = (id: RequestId) => `${caller}\n${typeof id}:${id}`;
    return {
      track: (id, controller) => {
        const key = keyOf(id);
        this.calls.set(key, controller);
        return () => this.calls.get(key) === controller && this.calls.delete(key);
      },
      forget: (id, controller) => {
        const key = keyOf(id);
        if (this.calls.get(key) === controller) this.calls.delete(key);
      },
    };
  }

  /** Aborts the calls that the `notifications/cancelled` messages of a request body name. */
  cancelNamedIn(caller: string, body: unknown): void {
    if (this.calls.size === 0) return;
    for (const message of (Array.isArray(body) ? body : [body]) as { method?: unknown; params?: { requestId?: unknown } }[]) {
      if (message?.method !== "notifications/cancelled") continue;
      const id = message.params?.requestId;
      if (typeof id !== "string" && typeof id !== "number") continue;
      const controller = this.calls.get(`${caller}\n${typeof id}:${id}`);
      if (controller) abortAbandoned(controller, "cancelled");
    }
  }

  get size(): number {
    return this.calls.size;
  }
}
