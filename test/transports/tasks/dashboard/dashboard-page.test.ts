import { join } from "node:path";
import type { Page } from "playwright-core";
import { TaskService } from "herald";
import { HOOK_TIMEOUT, serverUrl, testServer, useTestServer, waitFor } from "herald/testing";
import { Repairs } from "../../../fixtures/apps/tasks-dashboard/services/repairs";
import { useChromium } from "../../../support/chromium";
import { deleteKeys, REDIS_URL, uniquePrefix } from "../support";

const OPERATOR_KEY = "operator-key-of-the-dashboard-page-test";
const prefix = uniquePrefix("tasks-dashboard-page");
useTestServer({
  appDir: join(__dirname, "../../../fixtures/apps/tasks-dashboard"),
  env: { REDIS_URL, TASKS_DRIVER: "redis", TASKS_PREFIX: prefix, OPERATOR_KEY, LOG_LEVEL: "fatal" },
});
afterAll(() => deleteKeys(prefix), HOOK_TIMEOUT);

const browser = useChromium();

/** What went wrong in the page's script, or against its Content-Security-Policy; each test expects none. */
let problems: string[] = [];

async function openDashboard(): Promise<Page> {
  problems = [];
  const page = await (await browser().newContext()).newPage();
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    // The browser logs each 4xx response: a 401 is how the page learns it needs the key.
    if (message.type() === "error" && !message.text().includes("status of 401")) problems.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to load: ${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto(`${serverUrl()}/admin/tasks`);
  return page;
}

async function signIn(page: Page): Promise<void> {
  await page.locator("#problem", { hasText: "A valid operator key is required" }).waitFor();
  await page.locator("#credential-value").fill(OPERATOR_KEY);
  await page.locator("#credential button").click();
  await page.locator("#state[data-state=ready]").waitFor();
}

const count = (page: Page, queue: string, name: string) => page.locator(`#queues tr[data-queue="${queue}"] td[data-count="${name}"]`);

test(
  "the page asks for the operator key, shows a failure with its error as text, and a retry from it runs the job again",
  async () => {
    const tasks = testServer().container.resolve(TaskService);
    const label = `<img src=x onerror="window.injected=1">`;
    const jobId = await tasks.enqueue("jobs:fragile", { label }, { retries: 0 });
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "failed");

    const page = await openDashboard();
    await signIn(page);

    const row = page.locator(`#failures tr[data-job-id="${jobId}"]`);
    await row.waitFor();
    // Shown as written, never read as HTML.
    expect(await row.locator("td[data-field=error]").textContent()).toContain(`broken: ${label}`);
    expect(await row.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
    expect(await count(page, "work", "failed").textContent()).toBe("1");
    const completedBefore = Number(await count(page, "work", "completed").textContent());

    testServer().container.resolve(Repairs).repair(label);
    await row.locator("button[data-verb=retry]").click();
    await page.locator("#notice", { hasText: `Job ${jobId} is queued again.` }).waitFor();
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "succeeded");

    // The page refreshes by itself: the job leaves the failures and joins the completed count.
    await row.waitFor({ state: "detached", timeout: 20_000 });
    await count(page, "work", "completed").filter({ hasText: String(completedBefore + 1) }).waitFor({ timeout: 20_000 });
    expect(await count(page, "work", "failed").textContent()).toBe("0");
    expect(await page.locator("#no-failures").isVisible()).toBe(true);
    expect(problems).toEqual([]);
  },
  60_000,
);

test(
  "a failed job removed from the page is gone; the schedules show their last and next run",
  async () => {
    const tasks = testServer().container.resolve(TaskService);
    const jobId = await tasks.enqueue("jobs:fragile", { label: "to be removed" }, { retries: 0 });
    await waitFor(async () => (await tasks.getJob("work", jobId))?.status === "failed");

    const page = await openDashboard();
    await signIn(page);
    const row = page.locator(`#failures tr[data-job-id="${jobId}"]`);
    await row.locator("button[data-verb=remove]").click();
    await page.locator("#notice", { hasText: `Job ${jobId} is removed.` }).waitFor();
    await row.waitFor({ state: "detached" });
    expect(await tasks.getJob("work", jobId)).toBeUndefined();

    const hourly = page.locator('#schedules tr[data-action="jobs:hourly"]');
    await hourly.locator("td[data-field=last-run]").filter({ hasNotText: "never" }).waitFor({ timeout: 20_000 });
    expect(await hourly.locator("td[data-field=next-run]").textContent()).not.toBe("\u2014");
    const nightly = page.locator('#schedules tr[data-action="jobs:nightly"]');
    expect(await nightly.locator("td[data-field=last-run]").textContent()).toBe("never");
    expect(await nightly.locator("td").nth(1).textContent()).toBe("cron 0 3 * * * (UTC)");
    expect(problems).toEqual([]);
  },
  60_000,
);
