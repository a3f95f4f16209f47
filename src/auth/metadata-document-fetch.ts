import { lookup as resolve, type LookupAddress } from "node:dns";
import { request } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { isSpecialUseAddress } from "./special-use-addresses";

/** Long enough for a document on the public web, short enough that a silent host ties nothing up. */
const FETCH_TIMEOUT_MS = 2_500;
/** A URL that failed is not fetched again for this long: one client ID cannot make the server knock again and again. */
const FAILURE_TTL_MS = 5 * 60_000;
const MAX_REMEMBERED_FAILURES = 1_000;

export interface MetadataDocumentFetchOptions {
  /** Host names fetched whatever they resolve to (OAUTH_CLIENT_METADATA_ALLOWED_HOSTS); none by default. */
  allowedHosts: readonly string[];
}

class RefusedAddress extends Error {}

/**
 * Resolves a name as Node's `lookup` would, and refuses it when any of its addresses is of
 * special use: the connection is then made to an address that was checked, never to what a
 * second resolution (DNS rebinding) would give.
 */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const refused = addresses.find((entry) => isSpecialUseAddress(entry.address));
    if (refused || addresses.length === 0) return callback(new RefusedAddress(`${hostname} resolves to an address that is not fetched`), "", 0);
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
  return headers;
}

/** One GET over https, its body streamed as fetch's is; the address is checked before any connection unless the host is allowed. */
function get(url: URL, init: RequestInit | undefined, allowed: boolean): Promise<Response> {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowed && isIP(hostname) && isSpecialUseAddress(hostname)) {
    return Promise.reject(new RefusedAddress(`${url.host} is an address that is not fetched`));
  }
  const signal = init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]) : AbortSignal.timeout(FETCH_TIMEOUT_MS);
  return new Promise((resolveResponse, reject) => {
    const outgoing = request(url, { method: "GET", headers: headersOf(init), signal, ...(allowed ? {} : { lookup: checkedLookup }) }, (incoming) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
      }
      const status = incoming.statusCode ?? 502;
      const body = status === 204 || status === 304 ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
      resolveResponse(new Response(body, { status, headers }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/**
 * How the authorization server fetches client ID metadata documents: https only, never from
 * a special-use address (loopback, private, link-local, …: the name is resolved and every
 * address checked before connecting, and the connection goes to a checked one), within a short
 * timeout, and a URL that failed (refused, unreachable, not 200) is not fetched again for a
 * while. Without this a client ID could make the server connect to its own network, and time
 * how long each port took to answer.
 */
export function metadataDocumentFetch(options: MetadataDocumentFetchOptions): typeof fetch {
  const allowedHosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const failedUntil = new Map<string, number>();
  const remember = (key: string) => {
    failedUntil.delete(key);
    failedUntil.set(key, Date.now() + FAILURE_TTL_MS);
    // A Map iterates in insertion order: the first key is the oldest failure.
    if (failedUntil.size > MAX_REMEMBERED_FAILURES) failedUntil.delete(failedUntil.keys().next().value!);
  };
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const until = failedUntil.get(url.href);
    if (until !== undefined && until > Date.now()) throw new Error(`${url.href} failed recently: not fetched again yet`);
    if (url.protocol !== "https:") throw new Error(`${url.href} is not an https URL`);
    try {
      const response = await get(url, init, allowedHosts.has(url.hostname.toLowerCase()));
      if (response.status !== 200) remember(url.href);
      return response;
    } catch (error) {
      remember(url.href);
      throw error;
    }
  }) as typeof fetch;
}
