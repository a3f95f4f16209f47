import { join } from "node:path";
import { ErrorType } from "herald";
import { useTestServer, waitFor } from "herald/testing";
import { gates } from "../../fixtures/apps/websocket/gates";
import { jsonLogs } from "../../support/json-logs";
import { TestSocket } from "./support/test-socket";

const { stream: logDestination, lines: logs } = jsonLogs();
useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "", LOG_LEVEL: "info", LOG_FORMAT: "json" }, logDestination });

const held = (gate: string, action = "ws:gate") => ({ messageType: "action", messageId: gate, action, params: { gate } });

test("an action past its timeout is answered with CONNECTION_ACTION_TIMEOUT, its signal fires with that error, and the socket serves on", async () => {
  const socket = await TestSocket.open();
  try {
    const reply = await socket.request(held("timed-out", "ws:gate-with-timeout"));
    expect(reply).toMatchObject({ messageId: "timed-out", error: { type: ErrorType.CONNECTION_ACTION_TIMEOUT } });
    expect(await gates.settled("timed-out")).toMatchObject({ outcome: "aborted", reason: { type: ErrorType.CONNECTION_ACTION_TIMEOUT } });
    expect((await socket.action("ws:echo", { text: "next" })).response.text).toBe("next");
  } finally {
    await socket.close();
  }
});

test("closing a socket fires the abort signal of every action it has in flight, and of no other socket's", async () => {
  const closing = await TestSocket.open();
  const other = await TestSocket.open();
  try {
    closing.send(held("closed-first"));
    closing.send(held("closed-second"));
    const untouched = other.request(held("other-socket"));
    await Promise.all(["closed-first", "closed-second", "other-socket"].map((gate) => gates.entered(gate)));

    await closing.close();
    for (const gate of ["closed-first", "closed-second"]) {
      expect(await gates.settled(gate)).toMatchObject({ outcome: "aborted", reason: { type: ErrorType.CONNECTION_CLIENT_GONE } });
    }
    gates.open("other-socket");
    expect(await untouched).toEqual({ messageId: "other-socket", response: { gate: "other-socket", outcome: "opened" } });
  } finally {
    await Promise.all([closing.close(), other.close()]);
  }
});

test("a call whose socket closed is logged at info as its own outcome, client gone (499), not as a failure", async () => {
  const closing = await TestSocket.open();
  closing.send(held("left-behind"));
  await gates.entered("left-behind");
  await closing.close();
  await waitFor(() => logs.some((line) => line.action === "ws:gate" && line.status === 499));
  const line = logs.find((entry) => entry.action === "ws:gate" && entry.status === 499)!;
  expect(line).toMatchObject({ level: 30, msg: "client gone", connection: "websocket", error: { type: ErrorType.CONNECTION_CLIENT_GONE } });
  expect(logs.filter((entry) => entry.action === "ws:gate" && entry.level >= 50)).toEqual([]);
});
