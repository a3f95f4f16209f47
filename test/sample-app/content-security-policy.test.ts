import type { Page } from "playwright-core";
import { serverUrl, useTestServer, waitFor } from "herald/testing";
import { SAMPLE_APP } from "./support/app";
import { usePostgresSchema } from "./support/postgres";
import { useChromium } from "../support/chromium";

const postgres = usePostgresSchema("sample_csp");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, LOG_LEVEL: "fatal" } });

const browser = useChromium();

/** A page that records every Content-Security-Policy violation, as the browser reports them. */
async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
  const page = await browser().newPage();
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`));
  });
  return { page, violations };
}

test("the API reference page comes with a Content-Security-Policy header and renders its operations under it", async () => {
  const { page, violations } = await watchedPage();
  const response = await page.goto(`${serverUrl()}/api/docs`);
  expect(response!.headers()["content-security-policy"]).toMatch(/script-src 'self'/);
  await page.locator(".opblock").first().waitFor({ timeout: 20_000 });
  expect(await page.locator(".opblock-summary-path").count()).toBeGreaterThan(5);
  expect(violations).toEqual([]);
  await page.close();
});

test("the chat page comes with a Content-Security-Policy header and starts under it: its script runs and its socket connects", async () => {
  const { page, violations } = await watchedPage();
  const response = await page.goto(serverUrl());
  expect(response!.headers()["content-security-policy"]).toMatch(/script-src 'self'/);
  await page.locator("#live[data-state=live]").waitFor({ timeout: 20_000 });
  await page.locator("#sign-in-form").waitFor({ state: "visible" });
  expect(violations).toEqual([]);
  await page.close();
});

test("an inline script is refused under the policy, so the check above can fail", async () => {
  const { page, violations } = await watchedPage();
  await page.goto(`${serverUrl()}/api/docs`);
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.inlineRan = true";
    document.body.append(script);
  });
  await waitFor(() => violations.length > 0);
  expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
  await page.close();
});

test("action answers are not stored by caches: the session's user, an error, a list", async () => {
  for (const path of ["/api/session", "/api/messages/list", "/api/user/1"]) {
    const response = await fetch(`${serverUrl()}${path}`);
    expect(response.headers.get("cache-control")).toBe("no-store");
  }
});
