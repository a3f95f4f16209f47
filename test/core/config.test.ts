import { z } from "zod";
import { ErrorType, LogFormat, LogLevel, TypedError, loadConfig, readSettings } from "herald";

function configError(env: NodeJS.ProcessEnv): TypedError {
  try {
    loadConfig(env);
  } catch (error) {
    return error as TypedError;
  }
  throw new Error("no error");
}

test("defaults outside production", () => {
  const config = loadConfig({});
  expect(config).toMatchObject({
    env: "development",
    port: 8080,
    host: "127.0.0.1",
    actionTimeout: 300_000,
    paramsBounds: { maxKeys: 1_000, maxValues: 10_000 },
    trustProxy: false,
    logLevel: LogLevel.info,
    logFormat: LogFormat.text,
  });
  expect(config.production).toBe(false);
  expect(config.databaseUrl).toBeUndefined();
  expect(config.redisUrl).toBeUndefined();
});

test.each([
  ["true", true],
  ["false", false],
  ["2", 2],
  ["loopback, 10.0.0.0/8", "loopback, 10.0.0.0/8"],
])("HTTP_TRUST_PROXY=%s is %p, for every transport with a network peer", (text, value) => {
  expect(loadConfig({ HTTP_TRUST_PROXY: text }).trustProxy).toEqual(value);
});

test("production binds every interface and logs JSON", () => {
  expect(loadConfig({ NODE_ENV: "production" })).toMatchObject({ host: "0.0.0.0", logFormat: LogFormat.json, production: true });
});

test("values are typed", () => {
  const config = loadConfig({
    PORT: "3000",
    ACTION_TIMEOUT: "0",
    PARAMS_MAX_KEYS: "50",
    PARAMS_MAX_VALUES: "200",
    LOG_LEVEL: "debug",
    LOG_FORMAT: "json",
    REDIS_URL: "redis://127.0.0.1:6379",
    DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
  });
  expect(config).toMatchObject({ port: 3000, actionTimeout: 0, logLevel: "debug", logFormat: "json", paramsBounds: { maxKeys: 50, maxValues: 200 } });
  expect(config.redisUrl).toBe("redis://127.0.0.1:6379");
});

test("NAME_<NODE_ENV> overrides NAME", () => {
  expect(loadConfig({ NODE_ENV: "test", PORT: "8080", PORT_TEST: "0" }).port).toBe(0);
  expect(loadConfig({ NODE_ENV: "production", PORT: "8080", PORT_TEST: "0" }).port).toBe(8080);
  expect(loadConfig({ PORT_DEVELOPMENT: "9000" }).port).toBe(9000);
});

test.each([
  ["PORT", "eighty"],
  ["PORT", "70000"],
  ["ACTION_TIMEOUT", "-1"],
  ["PARAMS_MAX_KEYS", "0"],
  ["LOG_LEVEL", "loud"],
  ["LOG_FORMAT", "xml"],
  ["NODE_ENV", "staging"],
  ["REDIS_URL", "not a url"],
])("a bad %s=%s fails fast with CONFIG_ERROR naming the variable", (variable, value) => {
  const error = configError({ [variable]: value });
  expect(error).toBeInstanceOf(TypedError);
  expect(error.type).toBe(ErrorType.CONFIG_ERROR);
  expect(error.key).toBe(variable);
  expect(error.message).toContain(variable);
});

test("readSettings applies the same overrides and errors to a part's own settings", () => {
  const schema = z.object({ API_PREFIX: z.string().startsWith("/").default("/api") });
  expect(readSettings(schema, loadConfig({}))).toEqual({ API_PREFIX: "/api" });
  expect(readSettings(schema, loadConfig({ NODE_ENV: "test", API_PREFIX_TEST: "/v2" }))).toEqual({ API_PREFIX: "/v2" });
  expect(() => readSettings(schema, loadConfig({ API_PREFIX: "nope" }))).toThrow(/API_PREFIX/);
});
