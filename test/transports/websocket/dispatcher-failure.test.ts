import { join } from "node:path";
import { testServer, useTestServer } from "herald/testing";
import { TestSocket } from "./support/test-socket";

useTestServer({ appDir: join(__dirname, "../../fixtures/apps/websocket"), env: { REDIS_URL: "" } });

test("when the dispatcher itself fails, the caller still gets an error for its messageId and the socket stays open", async () => {
  const dispatcher = testServer().dispatcher;
  const original = dispatcher.run.bind(dispatcher);
  dispatcher.run = async () => {
    throw new Error("dispatcher broke");
  };
  const socket = await TestSocket.open();
  try {
    const reply = await socket.request({ messageType: "action", messageId: "broken-1", action: "ws:echo", params: { text: "hi" } });
    expect(reply).toMatchObject({ messageId: "broken-1", error: { type: "CONNECTION_ACTION_RUN" } });
    dispatcher.run = original;
    const next = await socket.request({ messageType: "action", messageId: "ok-1", action: "ws:echo", params: { text: "hi" } });
    expect(next).toMatchObject({ messageId: "ok-1", response: { text: "hi" } });
  } finally {
    dispatcher.run = original;
    await socket.close();
  }
});
