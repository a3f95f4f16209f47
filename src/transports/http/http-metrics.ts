import { METHODS, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Attributes, Histogram, Meter } from "@opentelemetry/api";
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  HTTP_REQUEST_METHOD_VALUE_OTHER,
  METRIC_HTTP_SERVER_REQUEST_DURATION,
} from "@opentelemetry/semantic-conventions";
import { DURATION_BUCKETS } from "../../core/metrics";
import type { ActionCall } from "./action-router";

/** Sockets open on the web transport's port: no semantic convention counts a server's connections. */
export const METRIC_HTTP_OPEN_CONNECTIONS = "herald.http.server.open_connections";

const KNOWN_METHODS = new Set(METHODS);
/** Where a response keeps the route template of the action that answers it. */
const ROUTE = Symbol("herald.http.route");

type RoutedResponse = ServerResponse & { [ROUTE]?: string };

/**
 * The web transport's metrics: `http.server.request.duration` of every request, with the route
 * template of the action that answered it (never the path: a request no action answers has no
 * route), and the open connections. Attributes are made once per method, route and status.
 */
export class HttpMetrics {
  private readonly duration: Histogram;
  private readonly attributes = new Map<string, Attributes>();

  constructor(meter: Meter, listener: () => Server | undefined) {
    this.duration = meter.createHistogram(METRIC_HTTP_SERVER_REQUEST_DURATION, {
      unit: "s",
      description: "Duration of HTTP server requests",
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
    meter
      .createObservableUpDownCounter(METRIC_HTTP_OPEN_CONNECTIONS, { unit: "{connection}", description: "Open HTTP connections, upgraded ones included" })
      .addCallback(
        (result) =>
          new Promise<void>((resolve) => {
            const server = listener();
            if (!server) return resolve();
            server.getConnections((error, count) => {
              if (!error) result.observe(count);
              resolve();
            });
          }),
      );
  }

  /** Times the request until its response closes. */
  begin(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    res.once("close", () => this.record(req.method, res as RoutedResponse, (performance.now() - started) / 1000));
  }

  /** The action's call, which marks its response with the action's route template. */
  routed(call: ActionCall, template: string): ActionCall {
    return (req, res, ...rest) => {
      (res as RoutedResponse)[ROUTE] = template;
      return call(req, res, ...rest);
    };
  }

  private record(method: string | undefined, res: RoutedResponse, seconds: number): void {
    const known = method !== undefined && KNOWN_METHODS.has(method) ? method : HTTP_REQUEST_METHOD_VALUE_OTHER;
    const route = res[ROUTE];
    const status = res.statusCode;
    const key = `${known} ${status} ${route ?? ""}`;
    let attributes = this.attributes.get(key);
    if (!attributes) {
      attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: known,
        [ATTR_HTTP_RESPONSE_STATUS_CODE]: status,
        ...(route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route }),
      };
      this.attributes.set(key, attributes);
    }
    this.duration.record(seconds, attributes);
  }
}
