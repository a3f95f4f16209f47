import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { HOOK_TIMEOUT, serverUrl, useTestServer } from "herald/testing";
import { usePostgresSchema } from "./support/postgres";
import { createUser, run, SAMPLE_APP, signedIn, truncateAll } from "./support/app";
import { useChromium } from "../support/chromium";

const postgres = usePostgresSchema("sample_chat_page");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });
beforeEach(truncateAll);

const browser = useChromium();

/** What went wrong in the pages' scripts; each test expects none. */
let problems: string[] = [];
beforeEach(() => {
  problems = [];
});

/** A page in a browser context of its own: its own cookies, as a second person's browser has. */
async function openChat(): Promise<Page> {
  const context = await browser().newContext();
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    // The browser logs every 4xx response; a 401 is how the page learns it is signed out.
    if (message.type() === "error" && !message.text().includes("status of 401")) problems.push(message.text());
  });
  await page.goto(serverUrl());
  return page;
}

async function signUp(page: Page, user: { name: string; email: string; password: string }): Promise<void> {
  const form = page.locator("#sign-up-form");
  await form.locator("[name=name]").fill(user.name);
  await form.locator("[name=email]").fill(user.email);
  await form.locator("[name=password]").fill(user.password);
  await form.locator("button").click();
  await page.locator("#account", { hasText: `Signed in as ${user.name}` }).waitFor();
}

async function post(page: Page, body: string): Promise<void> {
  await page.locator("#body").fill(body);
  await page.locator("#post-form button").click();
}

const messageRow = (page: Page, body: string) => page.locator("#messages li", { hasText: body });

test(
  "a message posted in one browser appears live in another",
  async () => {
    const ada = await openChat();
    const grace = await openChat();
    try {
      await signUp(ada, { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" });
      await signUp(grace, { name: "Grace Hopper", email: "grace@example.com", password: "compile this" });
      // Subscribed first: channel delivery goes only to current subscribers.
      await Promise.all([ada.locator("#live[data-state=live]").waitFor(), grace.locator("#live[data-state=live]").waitFor()]);

      await post(ada, "Hello from Ada!");
      await messageRow(grace, "Hello from Ada!").waitFor();
      expect(await messageRow(grace, "Hello from Ada!").locator(".author").textContent()).toBe("Ada Lovelace");

      await post(grace, "Hi Ada, <b>Grace</b> here");
      await messageRow(ada, "Grace</b> here").waitFor();
      // Newest first, each message once (the poster's own arrives from the channel too), as text.
      expect(await ada.locator("#messages li .body").allTextContents()).toEqual(["Hi Ada, <b>Grace</b> here", "Hello from Ada!"]);
      expect(await ada.locator("#messages b").count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await ada.context().close();
      await grace.context().close();
    }
  },
  HOOK_TIMEOUT,
);

test(
  "a visitor reads the list signed out; signing in and out switches the forms",
  async () => {
    await createUser({ name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" });
    await run("message:create", { body: "Posted earlier" }, await signedIn("ada@example.com", "analytical engine"));
    const page = await openChat();
    try {
      await messageRow(page, "Posted earlier").waitFor(); // loaded from messages:list
      await page.locator("#sign-in-form").waitFor();
      expect(await page.locator("#post-form").isHidden()).toBe(true);

      const form = page.locator("#sign-in-form");
      await form.locator("[name=email]").fill("ada@example.com");
      await form.locator("[name=password]").fill("not the password");
      await form.locator("button").click();
      await page.locator("#error", { hasText: "Wrong e-mail address or password" }).waitFor();

      await form.locator("[name=email]").fill("ada@example.com");
      await form.locator("[name=password]").fill("analytical engine");
      await form.locator("button").click();
      await page.locator("#account", { hasText: "Signed in as Ada Lovelace" }).waitFor();

      await page.reload(); // the session cookie keeps the page signed in
      await page.locator("#account", { hasText: "Signed in as Ada Lovelace" }).waitFor();

      await page.locator("#sign-out").click();
      await page.locator("#sign-in-form").waitFor();
      await page.reload();
      await page.locator("#sign-in-form").waitFor();
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  },
  HOOK_TIMEOUT,
);

test(
  "the export button shows the export's progress from its job's events, then a link to its CSV",
  async () => {
    await createUser({ name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" });
    const ada = await signedIn("ada@example.com", "analytical engine");
    for (const body of ["first", "second"]) await run("message:create", { body }, ada);
    const page = await openChat();
    try {
      await page.locator("#export-start").click();
      const link = page.locator("#export-download", { hasText: "Download 2 messages (CSV)" });
      await link.waitFor();
      expect(await page.locator("#export-progress").evaluate((bar: HTMLProgressElement) => [bar.value, bar.max])).toEqual([1, 1]);
      expect(await page.locator("#export-status").textContent()).toBe("done");
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      expect(download.suggestedFilename()).toBe("messages.csv");
      const csv = readFileSync((await download.path())!, "utf8");
      expect(csv).toMatch(/^id,author,body,created_at\n1,"Ada Lovelace","first",\S+\n2,"Ada Lovelace","second",\S+\n$/);
      expect(await page.locator("#export-start").isDisabled()).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  },
  HOOK_TIMEOUT,
);
