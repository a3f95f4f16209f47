import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider" with { "resolution-mode": "import" };
import { ErrorType, retryAfterOf, TypedError } from "../core/errors";
import { INTERACTION_PATH } from "./provider-configuration";
import { renderConsentPage, renderErrorPage, renderSignInPage, type FormField } from "./pages";
import { paramsFromForm, refilledFields } from "./sign-in-form";

/** What running the app's sign-in action gave: the account (the user's id) and the session it filled, or the error to show on the form. */
export type SignInOutcome = { accountId: string; sessionId: string } | { error: TypedError };

export interface InteractionParts {
  provider: () => Provider;
  fields: readonly FormField[];
  signIn(params: Record<string, unknown>, request: IncomingMessage): Promise<SignInOutcome>;
}

const FORM_LIMIT = 64 * 1024;

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT) throw new TypedError({ message: `A sign-in form is at most ${FORM_LIMIT} bytes`, type: ErrorType.CONNECTION_PAYLOAD_TOO_LARGE });
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** `form-action` must allow where the form's redirects end, the client's redirect URI, or browsers stop there. */
function allowRedirectTo(response: ServerResponse, redirectUri: unknown): void {
  const target = typeof redirectUri === "string" ? URL.parse(redirectUri) : null;
  const policy = response.getHeader("Content-Security-Policy");
  if (!target || typeof policy !== "string") return;
  const source = target.protocol === "http:" || target.protocol === "https:" ? target.origin : target.protocol;
  response.setHeader("Content-Security-Policy", policy.replace("form-action 'self'", `form-action 'self' ${source}`));
}

/** Each sign-in starts a grant of its own, whose id is the session it filled: its tokens find that session, and end with it. */
async function newGrant(provider: Provider, signedIn: { accountId: string; sessionId: string }, clientId: string): Promise<string> {
  const grant = new provider.Grant({ jti: signedIn.sessionId, accountId: signedIn.accountId, clientId } as ConstructorParameters<Provider["Grant"]>[0]);
  return grant.save();
}

function send(response: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    ...headers,
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    // Under no-referrer a form's POST says `Origin: null`, which the cross-site check refuses; same-origin names this site and no other.
    "Referrer-Policy": "same-origin",
  });
  response.end(html);
}

/**
 * How a refused sign-in is answered: a refusal to retry later (a rate limit, a busy service) as
 * the API answers it, with its status and Retry-After; invalid fields 422; any other refusal 401,
 * whatever its cause, so that the page tells no more than "not signed in".
 */
function signInRefusal(error: TypedError): { status: number; headers: Record<string, string> } {
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined) return { status: error.status, headers: { "Retry-After": String(retryAfter) } };
  return { status: error.issues?.length ? 422 : 401, headers: {} };
}

/**
 * The sign-in and consent pages at `/interaction/:uid`. oidc-provider's interaction cookie, scoped
 * to that path and SameSite=Lax, ties each submission to the browser that started the
 * authorization, so another site cannot post one.
 */
export async function handleInteraction(parts: InteractionParts, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const provider = parts.provider();
  const [uid, step, extra] = (request.url ?? "").split("?")[0]!.slice(INTERACTION_PATH.length + 1).split("/");
  let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
  try {
    details = await provider.interactionDetails(request, response);
  } catch {
    return send(response, 400, renderErrorPage("This sign-in has expired or was started in another browser", "Start again from the application."));
  }
  if (extra !== undefined || details.uid !== uid) return send(response, 404, renderErrorPage("not_found"));
  const { prompt, params } = details;
  const client = await provider.Client.find(String(params.client_id));
  const clientName = client?.clientName ?? String(params.client_id);
  const action = `${INTERACTION_PATH}/${details.uid}/${prompt.name === "login" ? "login" : "confirm"}`;
  allowRedirectTo(response, params.redirect_uri);
  const isPost = request.method === "POST";
  if (!isPost && request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD, POST");
    return send(response, 405, renderErrorPage("method_not_allowed"));
  }
  if (!isPost) {
    if (prompt.name === "login") return send(response, 200, renderSignInPage({ action, clientName, fields: parts.fields }));
    const redirectHost = URL.parse(String(params.redirect_uri))?.host || String(params.redirect_uri);
    const scopes = String(params.scope ?? "").split(" ").filter(Boolean);
    return send(response, 200, renderConsentPage({ action, clientName, clientId: String(params.client_id), redirectHost, scopes }));
  }
  const form = await readForm(request);
  if (prompt.name === "login" && step === "login") {
    const outcome = await parts.signIn(paramsFromForm(parts.fields, form), request);
    if ("error" in outcome) {
      const fields = refilledFields(parts.fields, form, outcome.error.issues);
      const { status, headers } = signInRefusal(outcome.error);
      return send(response, status, renderSignInPage({ action, clientName, fields, error: outcome.error.message }), headers);
    }
    const grantId = await newGrant(provider, outcome, String(params.client_id));
    return provider.interactionFinished(request, response, { login: { accountId: outcome.accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }
  if (prompt.name === "consent" && step === "confirm") {
    if (form.get("decision") !== "allow") {
      const result = { error: "access_denied", error_description: "The user did not allow access" };
      return provider.interactionFinished(request, response, result, { mergeWithLastSubmission: false });
    }
    const accountId = details.session!.accountId;
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(params.client_id) });
    if (!grant) return send(response, 400, renderErrorPage("invalid_request", "The grant has expired: start again from the application."));
    const missing = prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(" "));
    const grantId = await grant.save();
    return provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  return send(response, 400, renderErrorPage("invalid_request", "This step does not match the sign-in's state: start again from the application."));
}
