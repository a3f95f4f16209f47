import type { Page } from "playwright-core";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { useChromium } from "../../support/chromium";
import { copyFixtureApp, makeScratchDir, removeScratchDir } from "../../support/scratch-apps";

/** A development server answers CLI commands on a socket in its app folder: it gets its own copy of the app. */
const scratch = makeScratchDir("welcome-browser-");
let server: HeraldServer;
beforeAll(async () => {
  server = await startTestServer({ appDir: copyFixtureApp("welcome", scratch), env: { NODE_ENV: "development", REDIS_URL: "", LOG_LEVEL: "fatal" } });
}, HOOK_TIMEOUT);
afterAll(async () => {
  await server?.stop();
  removeScratchDir(scratch);
}, HOOK_TIMEOUT);

const browser = useChromium();

/** A page that records what went wrong in it: console errors (CSP violations among them), script errors, failed or outside requests. */
async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser().newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("requestfailed", (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on("request", (request) => {
    if (!request.url().startsWith(server.url!) && !request.url().startsWith("data:")) problems.push(`left the server: ${request.url()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`));
  });
  return { page, problems };
}

test("the welcome page renders in Chromium under its policy: its title and styled table show, and nothing is refused or fails", async () => {
  const { page, problems } = await watchedPage();
  const response = await page.goto(`${server.url}/`);
  expect(response!.status()).toBe(200);
  expect(await page.title()).toBe("welcome-fixture · Herald");
  expect(await page.locator("h1").innerText()).toBe("welcome-fixture");
  expect(await page.locator("h1").isVisible()).toBe(true);
  // The inline style applied: its hash is in the policy.
  expect(await page.locator("table").evaluate((table) => getComputedStyle(table).borderCollapse)).toBe("collapse");
  expect(await page.locator("tr", { hasText: "notes:add" }).innerText()).toContain(`Adds a note <script>alert("welcome")</script> & keeps it`);
  expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  expect(problems).toEqual([]);
  await page.close();
});

test("a style the page did not ship is refused under its policy, so the check above can fail", async () => {
  const { page, problems } = await watchedPage();
  await page.goto(`${server.url}/`);
  await page.evaluate(() => {
    const style = document.createElement("style");
    style.textContent = "h1 { color: rgb(255, 0, 0) }";
    document.head.append(style);
  });
  await waitFor(() => problems.some((problem) => /style-src/.test(problem)));
  expect(await page.locator("h1").evaluate((heading) => getComputedStyle(heading).color)).not.toBe("rgb(255, 0, 0)");
  await page.close();
});
