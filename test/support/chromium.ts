import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { HOOK_TIMEOUT } from "herald/testing";

/** Debian's `chromium` package (`.ci/run` installs it when it is missing); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * One headless Chromium for the file, launched before its tests and closed after them; returns
 * the getter of the browser. Never skipped: without a Chromium these tests fail, in CI and out of it.
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`These tests need Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Without the background-networking flags Chromium keeps dialling out, and is refused, on a closed network.
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
  }, HOOK_TIMEOUT);
  afterAll(() => browser?.close(), HOOK_TIMEOUT);
  return () => {
    if (!browser) throw new Error("Chromium is not running");
    return browser;
  };
}
