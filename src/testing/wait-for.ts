export interface WaitForOptions {
  interval?: number;
  timeout?: number;
}

/** Polls `condition` until it returns true, instead of sleeping a fixed time. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  { interval = 50, timeout = 5000 }: WaitForOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? `; last error: ${lastError.message}` : "";
      throw new Error(`waitFor: condition not met within ${timeout} ms${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
