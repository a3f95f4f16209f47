import type { IncomingMessage, ServerResponse } from "node:http";
import { addressKey } from "../core/caller-address";
import type { RateLimitStore } from "../middleware/rate-limit-store";
import type { AuthLimits } from "./limit-settings";
import { renderErrorPage } from "./pages";
import { ROUTES } from "./provider-configuration";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** An interaction lives 10 minutes: a window that long bounds how many are stored at once (two windows' worth at most). */
const INTERACTION_WINDOW_MS = 600_000;

interface Budget {
  key: string;
  limit: number;
  windowMs: number;
  /** 429 for one caller's budget, 503 for the server's. */
  status: 429 | 503;
  reason: string;
}

export interface RequestLimitParts {
  limits: AuthLimits;
  /** Herald's rate-limit store, Redis-backed with REDIS_URL: resolved at the first request. */
  store: () => RateLimitStore;
  callerAddress: (request: IncomingMessage) => string | undefined;
}

/**
 * The authorization server's two endpoints that store something for an anonymous caller, each
 * within a budget per address and one across addresses: registration (a client record) and the
 * authorization request (an interaction, the sign-in in progress). Past a budget the caller is
 * told when to come back, and nothing is stored.
 */
export class AuthorizationRequestLimits {
  constructor(private readonly parts: RequestLimitParts) {}

  /** Whether the request may go on; when not, the refusal has been sent. */
  async admit(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const path = (request.url ?? "").split("?")[0];
    const registers = path === ROUTES.registration && request.method === "POST" && this.parts.limits.registration;
    // The authorization request only: its resumption (`/oauth/authorize/<uid>`) continues an interaction already counted.
    const authorizes = path === ROUTES.authorization && (request.method === "GET" || request.method === "POST");
    if (!registers && !authorizes) return true;
    const address = addressKey(this.parts.callerAddress(request)) ?? "unknown";
    const budgets = registers ? this.registration(address) : this.authorization(address);
    const store = this.parts.store();
    const counted: string[] = [];
    for (const budget of budgets) {
      const { count, resetAt } = await store.hit(budget.key, budget.windowMs);
      counted.push(budget.key);
      if (count <= budget.limit) continue;
      // A refused request holds no place in the budgets counted before the one that refused it.
      await Promise.all(counted.slice(0, -1).map((key) => store.uncount(key)));
      const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      if (registers) refuseRegistration(response, budget, retryAfter);
      else refuseAuthorization(response, budget, retryAfter);
      return false;
    }
    return true;
  }

  private registration(address: string): Budget[] {
    const { registrationsPerAddress, registrationsPerHour } = this.parts.limits;
    return [
      { key: `oauth:register:ip:${address}`, limit: registrationsPerAddress, windowMs: HOUR_MS, status: 429, reason: "Too many client registrations from this address" },
      { key: "oauth:register:all", limit: registrationsPerHour, windowMs: HOUR_MS, status: 503, reason: "Too many client registrations for now" },
    ];
  }

  private authorization(address: string): Budget[] {
    const { authorizationsPerAddress, authorizationsInFlight } = this.parts.limits;
    return [
      { key: `oauth:authorize:ip:${address}`, limit: authorizationsPerAddress, windowMs: MINUTE_MS, status: 429, reason: "Too many sign-ins started from this address" },
      { key: "oauth:authorize:all", limit: authorizationsInFlight, windowMs: INTERACTION_WINDOW_MS, status: 503, reason: "Too many sign-ins are under way" },
    ];
  }
}

/** Registration answers in JSON, as RFC 7591 does. */
function refuseRegistration(response: ServerResponse, budget: Budget, retryAfter: number): void {
  const description = `${budget.reason}: retry in ${retryAfter} s`;
  response.writeHead(budget.status, { "Retry-After": String(retryAfter), "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8" });
  response.end(JSON.stringify({ error: "temporarily_unavailable", error_description: description }));
}

/** On a page, as the browser that started the sign-in shows it: never by redirect to a client's URI. */
function refuseAuthorization(response: ServerResponse, budget: Budget, retryAfter: number): void {
  response.writeHead(budget.status, { "Retry-After": String(retryAfter), "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8" });
  response.end(renderErrorPage("temporarily_unavailable", `${budget.reason}: retry in ${retryAfter} s`));
}
