import { ErrorType, loadConfig } from "herald";
import { readChannelSettings } from "../../src/channels/channel-settings";

test("channels use Redis when REDIS_URL is set, and CHANNELS_DRIVER=redis without it is a CONFIG_ERROR", () => {
  expect(readChannelSettings(loadConfig({ REDIS_URL: "redis://127.0.0.1:6379", NAME: "app" }))).toMatchObject({
    driver: "redis",
    prefix: "app:channels:0:",
    presenceTtlMs: 30_000,
  });
  expect(readChannelSettings(loadConfig({ REDIS_URL: "redis://127.0.0.1:6379", CHANNELS_DRIVER: "memory" })).driver).toBe("memory");
  expect(() => readChannelSettings(loadConfig({ CHANNELS_DRIVER: "redis" }))).toThrow(
    expect.objectContaining({ type: ErrorType.CONFIG_ERROR, key: "REDIS_URL" }),
  );
});
