import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { HOOK_TIMEOUT } from "herald/testing";
import { HERALD_BIN } from "../support/cli";
import { SAMPLE_APP } from "./support/app";
import { usePostgresSchema } from "./support/postgres";

/** `herald mcp` on the sample app: what a stdio caller, who can never sign in, is offered. */
const postgres = usePostgresSchema("sample_stdio");

test("over stdio the sign-in-only session-view is not offered; the public tools are", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HERALD_BIN, "mcp"],
    cwd: SAMPLE_APP,
    env: { ...(process.env as Record<string, string>), NODE_ENV: "test", DATABASE_URL: postgres.url, REDIS_URL: "" },
    stderr: "pipe",
  });
  const client = new Client({ name: "sample-stdio", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["messages-export", "messages-list", "status", "user-create"]);
    await expect(client.callTool({ name: "session-view", arguments: {} })).rejects.toThrow(/Unknown tool "session-view"/);
  } finally {
    await client.close();
  }
}, HOOK_TIMEOUT);
