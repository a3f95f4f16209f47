import { join } from "node:path";
import { ErrorType } from "herald";
import { useTestServer } from "herald/testing";
import { gates } from "../../fixtures/apps/websocket/gates";
import { TestSocket } from "./support/test-socket";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "" } });

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
      expect(await gates.settled(gate)).toMatchObject({ outcome: "aborted", reason: { type: ErrorType.CONNECTION_ACTION_RUN } });
    }
    gates.open("other-socket");
    expect(await untouched).toEqual({ messageId: "other-socket", response: { gate: "other-socket", outcome: "opened" } });
  } finally {
    await Promise.all([closing.close(), other.close()]);
  }
});
