import autocannon from "autocannon";
import { Latencies } from "./latencies";

export interface HttpLoad {
  url: string;
  connections: number;
  durationSeconds: number;
}

export interface HttpMeasure {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Drives `url` with autocannon (as a library, in this process) and reads throughput and latency.
 *
 * The percentiles are not autocannon's own: it records latencies in an HDR histogram of whole
 * milliseconds (integers, lowest discernible value 1), so 0.7 ms reads as 0 and a p99 ratio at
 * 1–6 ms is mostly rounding. Its `response` event hands over each response's time unrounded
 * (process.hrtime from the request's write to the response's end, in ms), so the percentiles are
 * taken from those instead: the same requests on the same connections, to the microsecond,
 * rather than a separate probe connection that would add to the load it measures.
 */
export async function measureHttp(load: HttpLoad): Promise<HttpMeasure> {
  const latencies = new Latencies();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: load.url, connections: load.connections, duration: load.durationSeconds, pipelining: 1 }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
      // As autocannon's own latency figures, 2xx answers only.
      if (statusCode >= 200 && statusCode < 300) latencies.add(responseTimeMs);
    });
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0 || result["2xx"] === 0) {
    throw new Error(
      `${load.url}: ${result["2xx"]} answers 2xx, ${result.non2xx} other statuses, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    requests: result["2xx"],
    requestsPerSecond: result["2xx"] / result.duration,
    ...latencies.percentiles(),
  };
}
