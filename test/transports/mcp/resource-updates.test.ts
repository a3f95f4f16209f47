import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { HeraldServer } from "herald";
import { HOOK_TIMEOUT, startTestServer, waitFor } from "herald/testing";
import { HeraldProcess } from "../../support/herald-process";
import { deleteAppKeys, SHARED_REDIS_URL, uniqueAppName } from "../../reliability/support/shared-redis";

const APP = join(__dirname, "../../fixtures/apps/mcp-channels");
const NAME = uniqueAppName("mcp-updates");
const env = { REDIS_URL: SHARED_REDIS_URL, NAME };

/** Two processes on one Redis: the client listens on `listener`, posts go through `publisher`. */
let listener: HeraldServer;
let publisher: HeraldProcess;
beforeAll(async () => {
  [listener, publisher] = await Promise.all([startTestServer({ appDir: APP, env }), HeraldProcess.start(APP, env)]);
}, HOOK_TIMEOUT);
afterAll(async () => {
  await Promise.all([listener?.stop(), publisher?.stop()]);
  await deleteAppKeys(NAME);
}, HOOK_TIMEOUT);

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "listening", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

function updatesOf(client: Client): string[] {
  const uris: string[] = [];
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    uris.push(notification.params.uri);
  });
  return uris;
}

test("a client listening on one process is told of a message published through the other, once per message", async () => {
  const watching = await connect(listener.url!);
  const posting = await connect(publisher.url);
  try {
    const updated = updatesOf(watching);
    const subscription = await watching.listen({ resourceSubscriptions: ["herald://board"] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual(["herald://board"]);
    await posting.callTool({ name: "board-post", arguments: { text: "first" } });
    await waitFor(() => updated.length === 1);
    await posting.callTool({ name: "board-post", arguments: { text: "second" } });
    await waitFor(() => updated.length === 2);
    expect(updated).toEqual(["herald://board", "herald://board"]);
    // The update says what changed; reading it runs the resource's action.
    expect((await watching.readResource({ uri: "herald://board" })).contents).toHaveLength(1);
    await subscription.close();
  } finally {
    await Promise.all([watching.close(), posting.close()]);
  }
});

test("two streams listening on one resource are each told once", async () => {
  const first = await connect(listener.url!);
  const second = await connect(listener.url!);
  try {
    const [updatesOfFirst, updatesOfSecond] = [updatesOf(first), updatesOf(second)];
    await first.listen({ resourceSubscriptions: ["herald://board"] });
    await second.listen({ resourceSubscriptions: ["herald://board"] });
    await first.callTool({ name: "board-post", arguments: { text: "hello" } });
    await waitFor(() => updatesOfFirst.length === 1 && updatesOfSecond.length === 1);
    // A later message counts again: had either stream been told twice, the first count would be 2.
    await first.callTool({ name: "board-post", arguments: { text: "again" } });
    await waitFor(() => updatesOfFirst.length === 2 && updatesOfSecond.length === 2);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

test("a template resource listens on the channel its variables name, under that channel's own rules", async () => {
  const staff = await connect(listener.url!, { Authorization: "Bearer staff" });
  const stranger = await connect(listener.url!);
  try {
    const updated = updatesOf(staff);
    await staff.listen({ resourceSubscriptions: ["herald://team/blue", "herald://board"] });
    await expect(stranger.listen({ resourceSubscriptions: ["herald://team/blue"] })).rejects.toThrow("Staff only");
    // Another team's channel is not this resource's: its message, sent before the board's, would be told first.
    await stranger.callTool({ name: "team-post", arguments: { team: "red", text: "not for blue" } });
    await stranger.callTool({ name: "board-post", arguments: { text: "after red" } });
    await waitFor(() => updated.includes("herald://board"));
    expect(updated).toEqual(["herald://board"]);
    await stranger.callTool({ name: "team-post", arguments: { team: "blue", text: "for blue" } });
    await waitFor(() => updated.length === 2);
    expect(updated).toEqual(["herald://board", "herald://team/blue"]);
  } finally {
    await Promise.all([staff.close(), stranger.close()]);
  }
});
