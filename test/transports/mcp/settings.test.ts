import { ErrorType, loadConfig } from "herald";
import { readMcpSettings } from "../../../src/transports/mcp/settings";

test("MCP_REQUEST_STATE_KEY is read when set, and one shorter than 32 characters fails the boot without echoing it", () => {
  expect(readMcpSettings(loadConfig({})).requestStateKey).toBeUndefined();
  expect(readMcpSettings(loadConfig({ MCP_REQUEST_STATE_KEY: "k".repeat(32) })).requestStateKey).toBe("k".repeat(32));
  let thrown: unknown;
  try {
    readMcpSettings(loadConfig({ MCP_REQUEST_STATE_KEY: "too-short-secret" }));
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "MCP_REQUEST_STATE_KEY" });
  expect(String((thrown as Error).message)).not.toContain("too-short-secret");
});
