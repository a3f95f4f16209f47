import { serverUrl, useTestServer } from "herald/testing";
import { FIXTURE_APP } from "./support/fixture-actions";
import { useChromium } from "../support/chromium";

useTestServer({ appDir: FIXTURE_APP, env: { LOG_LEVEL: "fatal" } });

const browser = useChromium();

test("the reference page renders in Chromium and lists every operation of the app", async () => {
  const page = await browser().newPage();
  const failures: string[] = [];
  page.on("pageerror", (error) => failures.push(error.message));
  page.on("requestfailed", (request) => failures.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on("request", (request) => {
    if (!request.url().startsWith(serverUrl())) failures.push(`left the server: ${request.url()}`);
  });

  await page.goto(`${serverUrl()}/api/docs`);
  await page.locator(".opblock").first().waitFor({ timeout: 20_000 });
  const operations = await page.locator(".opblock-summary").evaluateAll((blocks) =>
    blocks.map((block) => {
      const method = block.querySelector(".opblock-summary-method")?.textContent?.trim();
      const path = block.querySelector(".opblock-summary-path")?.getAttribute("data-path");
      return `${method} ${path}`;
    }),
  );
  expect(operations).toEqual(
    expect.arrayContaining([
      "PUT /api/user",
      "GET /api/user/{id}",
      "PATCH /api/user/{id}",
      "DELETE /api/user/{id}",
      "GET /api/messages/list",
      "GET /api/files/{name}",
      "GET /api/status",
    ]),
  );
  // Each row shows the action's description, where it used to show its name.
  const putUser = page.locator(".opblock-put", { has: page.locator('.opblock-summary-path[data-path="/api/user"]') });
  expect(await putUser.locator(".opblock-summary-description").innerText()).toBe("Sign up");
  expect(await page.locator(".info .title").textContent()).toContain("herald");
  expect(failures).toEqual([]);
  await page.close();
});
