/** The authorization server's pages: server-rendered, every value escaped, no script (the CSP allows none inline). */
import { escapeHtml } from "../core/escape-html";

const STYLE = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}
button{margin:1rem .5rem 0 0;padding:.5rem 1rem}.error{color:#a00}ul{padding-left:1.2rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export interface FormField {
  name: string;
  label: string;
  type: "text" | "email" | "password" | "number" | "checkbox";
  required: boolean;
  /** What the user typed last, shown again; never for a secret. */
  value?: string;
  error?: string;
}

export function renderSignInPage(options: { action: string; clientName: string; fields: readonly FormField[]; error?: string }): string {
  const fields = options.fields
    .map((field) => {
      const id = `field-${escapeHtml(field.name)}`;
      const value = field.value !== undefined && field.type !== "password" ? ` value="${escapeHtml(field.value)}"` : "";
      const error = field.error ? `<div class="error" id="${id}-error">${escapeHtml(field.error)}</div>` : "";
      const autocomplete = field.type === "password" ? ' autocomplete="current-password"' : field.type === "email" ? ' autocomplete="username"' : "";
      return `<label for="${id}">${escapeHtml(field.label)}</label><input id="${id}" name="${escapeHtml(field.name)}" type="${field.type}"${value}${autocomplete}${field.required ? " required" : ""}>${error}`;
    })
    .join("\n");
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : "";
  return page(
    "Sign in",
    `<p>${escapeHtml(options.clientName)} asks to act on your behalf. Sign in to continue.</p>${error}
<form method="post" action="${escapeHtml(options.action)}">${fields}<button type="submit">Sign in</button></form>`,
  );
}

export function renderConsentPage(options: { action: string; clientName: string; clientId: string; redirectHost: string; scopes: readonly string[] }): string {
  const scopes = options.scopes.length
    ? `<p>It asks for:</p><ul>${options.scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join("")}</ul>`
    : "<p>It asks to call this server's tools as you.</p>";
  return page(
    "Allow access?",
    `<p><strong>${escapeHtml(options.clientName)}</strong> (client <code>${escapeHtml(options.clientId)}</code>, returning to <code>${escapeHtml(options.redirectHost)}</code>) wants to use your account.</p>${scopes}
<form method="post" action="${escapeHtml(options.action)}"><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

export function renderErrorPage(error: string, description?: string): string {
  return page("Sign-in failed", `<p class="error">${escapeHtml(error)}</p>${description ? `<p>${escapeHtml(description)}</p>` : ""}`);
}
