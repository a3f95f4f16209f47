/**
 * Whether a browser's `Origin` header names the site a request was sent to (its `Host` header).
 * `Origin: null` (a sandboxed frame, a file, a redirect across sites) names no origin at all.
 */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
