import type { Browser } from "playwright-core";
import { REDIRECT_URI } from "./oauth-flow";

/**
 * What an MCP client keeps between the steps of its OAuth flow, in memory: the shape both SDK
 * generations' OAuthClientProvider asks for (each test adapts it to its own types).
 */
export class MemoryClientProvider {
  clientInfo: Record<string, unknown> | undefined;
  saved: Record<string, unknown> | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  /** Where discovery found the authorization server, checked again when the code comes back. */
  discovery: unknown;

  constructor(readonly clientName: string) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata() {
    return {
      client_name: this.clientName,
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation() {
    return this.clientInfo as never;
  }

  saveClientInformation(info: unknown): void {
    this.clientInfo = info as Record<string, unknown>;
  }

  tokens() {
    return this.saved as never;
  }

  saveTokens(tokens: unknown): void {
    this.saved = tokens as Record<string, unknown>;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: unknown): void {
    this.discovery = state;
  }

  discoveryState(): never {
    return this.discovery as never;
  }
}

/**
 * Signs in on the server's page in Chromium, first with a wrong password (whose error the form
 * shows), then consents; returns the redirect back to the client, which nothing serves: the
 * browser's request for it is read and answered here. Fails on a Content-Security-Policy
 * violation the page logs.
 */
export async function signInWithBrowser(browser: Browser, authorizationUrl: URL, credentials: { email: string; password: string }, clientName: string): Promise<URL> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    // A status of 401 is logged too, as a resource that failed to load: only a policy's refusal counts.
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    const redirected = new Promise<URL>((resolve) => {
      void page.route(`${new URL(REDIRECT_URI).origin}/**`, (route) => {
        resolve(new URL(route.request().url()));
        void route.fulfill({ status: 200, contentType: "text/plain", body: "signed in" });
      });
    });
    await page.goto(authorizationUrl.href);
    await page.fill('input[name="email"][type="email"]', credentials.email);
    await page.fill('input[name="password"][type="password"]', `${credentials.password} (wrong)`);
    await page.click('button[type="submit"]');
    const alert = await page.waitForSelector('[role="alert"]');
    const error = await alert.textContent();
    await page.fill('input[name="password"]', credentials.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('button[value="allow"]');
    const consent = (await page.textContent("body")) ?? "";
    await page.click('button[value="allow"]');
    const callback = await redirected;
    if (problems.length) throw new Error(`the pages logged errors: ${problems.join("; ")}`);
    if (!error?.includes("Wrong e-mail address or password")) throw new Error(`the form showed "${error}" for a wrong password`);
    if (!consent.includes(clientName)) throw new Error(`the consent page does not name the client: ${consent}`);
    return callback;
  } finally {
    await context.close();
  }
}
