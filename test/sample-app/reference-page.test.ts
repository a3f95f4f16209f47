import { serverUrl, useTestServer } from "herald/testing";
import { SAMPLE_APP } from "./support/app";
import { usePostgresSchema } from "./support/postgres";
import { useChromium } from "../support/chromium";

const postgres = usePostgresSchema("sample_reference_page");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url, LOG_LEVEL: "fatal" } });

const browser = useChromium();

test("the API reference page of the sample app loads in Chromium and lists its operations", async () => {
  const page = await browser().newPage();
  await page.goto(`${serverUrl()}/api/docs`);
  await page.locator(".opblock").first().waitFor({ timeout: 20_000 });
  const operations = await page.locator(".opblock-summary").evaluateAll((blocks) =>
    blocks.map(
      (block) =>
        `${block.querySelector(".opblock-summary-method")?.textContent?.trim()} ${block.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
    ),
  );
  expect(operations).toEqual(
    expect.arrayContaining(["PUT /api/user", "GET /api/messages/list", "PUT /api/session", "DELETE /api/session", "GET /api/status"]),
  );
});
