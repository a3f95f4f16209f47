
const read = (raw: Record<string, string>) => readHttpSettings({ raw });
import { readHttpSettings, removedHttpSettings } from "../../../src/transports/http/settings";

test("defaults", () => {
  expect(read({})).toEqual({
    apiPrefix: "/api",
    bodyLimit: 1024 * 1024,
    fileLimit: 10 * 1024 * 1024,
    maxFiles: 10,
    parseQueueLimit: 32 * 1024 * 1024,
    corsOrigins: [],
    staticMaxAge: 0,
    shutdownTimeout: 10_000,
    headersTimeout: 60_000,
    requestTimeout: 300_000,
    maxConnectionsPerAddress: 256,
  });
});

test("HTTP_FAST_PATH is no longer read: any value is ignored, and it is named among the removed settings", () => {
  expect(read({ HTTP_FAST_PATH: "false" })).toEqual(read({}));
  expect(read({ HTTP_FAST_PATH: "off" })).toEqual(read({}));
  expect(removedHttpSettings({ raw: { HTTP_FAST_PATH: "false" } })).toEqual([{ name: "HTTP_FAST_PATH", instead: expect.stringContaining("node:http") }]);
  expect(removedHttpSettings({ raw: {} })).toEqual([]);
});

test.each([
  ["2048", 2048],
  ["512kb", 512 * 1024],
  ["1.5MB", 1.5 * 1024 * 1024],
  ["1gb", 1024 ** 3],
  ["100 b", 100],
])("HTTP_BODY_LIMIT=%s is %d bytes", (text, bytes) => {
  expect(read({ HTTP_BODY_LIMIT: text }).bodyLimit).toBe(bytes);
});

test("HTTP_PARSE_QUEUE_LIMIT is a size of at least one byte", () => {
  expect(read({ HTTP_PARSE_QUEUE_LIMIT: "8mb" }).parseQueueLimit).toBe(8 * 1024 ** 2);
  expect(() => read({ HTTP_PARSE_QUEUE_LIMIT: "0" })).toThrow(/HTTP_PARSE_QUEUE_LIMIT/);
});

test("HTTP_FILE_LIMIT is a size too, apart from HTTP_BODY_LIMIT", () => {
  expect(read({ HTTP_FILE_LIMIT: "25mb", HTTP_BODY_LIMIT: "100kb" })).toMatchObject({ fileLimit: 25 * 1024 ** 2, bodyLimit: 100 * 1024 });
});

test("HTTP_CORS_ORIGINS is a comma-separated list of origins or *", () => {
  expect(read({ HTTP_CORS_ORIGINS: " https://a.example.com ,*, http://localhost:3000" }).corsOrigins).toEqual([
    "https://a.example.com",
    "*",
    "http://localhost:3000",
  ]);
});

test("both TLS files turn HTTPS on", () => {
  expect(read({ HTTP_TLS_CERT_FILE: "/c.pem", HTTP_TLS_KEY_FILE: "/k.pem" }).tls).toEqual({ certFile: "/c.pem", keyFile: "/k.pem" });
});

test.each([
  ["HTTP_BODY_LIMIT", "ten megs"],
  ["HTTP_CORS_ORIGINS", "app.example.com"],
  ["HTTP_STATIC_MAX_AGE", "-5"],
  ["HTTP_TLS_CERT_FILE", undefined],
])("a bad %s is a CONFIG_ERROR naming it", (variable, value) => {
  const raw: Record<string, string> = value === undefined ? { HTTP_TLS_KEY_FILE: "/k.pem" } : { [variable]: value };
  expect(() => read(raw)).toThrow(expect.objectContaining({ type: "CONFIG_ERROR", key: variable }));
});
