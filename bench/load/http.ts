import autocannon from "autocannon";

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

/** Drives `url` with autocannon (as a library, in this process) and reads throughput and latency. */
export async function measureHttp(load: HttpLoad): Promise<HttpMeasure> {
  const result = await autocannon({
    url: load.url,
    connections: load.connections,
    duration: load.durationSeconds,
    pipelining: 1,
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
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
