/** What an HTTP call answered: its status, headers and parsed JSON body. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * How long a call may go unanswered before the test calls it a hang. Far below the action
 * timeout (minutes), so a request stuck on a dead backing service fails the test rather than
 * passing late.
 */
export const NO_HANG_MS = 10_000;

/** One real HTTP request with global fetch; a JSON `body` is sent as `application/json`. */
export async function call(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(NO_HANG_MS),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text for the assertion to show.
  }
  return { status: response.status, headers: response.headers, body };
}
