import { ErrorType } from "herald";
import { readWebSocketSettings } from "../../../src/transports/websocket/settings";

const settingsOf = (raw: Record<string, string>) => readWebSocketSettings({ raw });

test("defaults: /ws, 64 KB messages, 100 messages a second, 100 subscriptions, 30 s pings", () => {
  expect(settingsOf({})).toEqual({
    path: "/ws",
    allowedOrigins: [],
    maxMessageSize: 64 * 1024,
    maxFrameSize: 4 * 64 * 1024,
    maxMessagesPerSecond: 100,
    maxSubscriptions: 100,
    pingInterval: 30_000,
    maxBuffered: 4 * 1024 * 1024,
    shutdownTimeout: 10_000,
    floodBackoff: 60_000,
  });
});

test("sizes take units; allowed origins default to the CORS origins", () => {
  const settings = settingsOf({ WS_MAX_MESSAGE_SIZE: "1mb", WS_MAX_BUFFERED: "512kb", HTTP_CORS_ORIGINS: "https://a.example, https://b.example" });
  expect(settings.maxMessageSize).toBe(1024 ** 2);
  expect(settings.maxBuffered).toBe(512 * 1024);
  expect(settings.allowedOrigins).toEqual(["https://a.example", "https://b.example"]);
  expect(settingsOf({ HTTP_CORS_ORIGINS: "https://a.example", WS_ALLOWED_ORIGINS: "*" }).allowedOrigins).toEqual(["*"]);
});

test.each([
  ["WS_PATH", "ws"],
  ["WS_PATH", "/ws/"],
  ["WS_MAX_MESSAGE_SIZE", "lots"],
  ["WS_MAX_MESSAGES_PER_SECOND", "0"],
  ["WS_FLOOD_BACKOFF", "-1"],
  ["WS_ALLOWED_ORIGINS", "app.example.com"],
])("%s=%s is a CONFIG_ERROR naming the variable", (variable, value) => {
  expect(() => settingsOf({ [variable]: value })).toThrow(expect.objectContaining({ type: ErrorType.CONFIG_ERROR, key: variable }));
});
