import WebSocket from "ws";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serverUrl, useTestServer, waitFor } from "herald/testing";
import { usePostgresSchema } from "./support/postgres";
import { createUser, SAMPLE_APP, truncateAll } from "./support/app";

const postgres = usePostgresSchema("sample_live");
useTestServer({ appDir: SAMPLE_APP, env: { DATABASE_URL: postgres.url } });
beforeEach(truncateAll);

const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };

/** A socket that records every message it receives. */
async function openSocket(headers: Record<string, string> = {}): Promise<{ socket: WebSocket; received: any[] }> {
  const socket = new WebSocket(`${serverUrl().replace(/^http/, "ws")}/ws`, { headers });
  const received: any[] = [];
  socket.on("message", (data) => received.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  return { socket, received };
}

async function signIn(): Promise<string> {
  const response = await fetch(`${serverUrl()}/api/session`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ada.email, password: ada.password }),
  });
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

describe("the messages channel", () => {
  test("anyone may subscribe, and receives each new message as a messages:list row", async () => {
    await createUser(ada);
    const cookie = await signIn();
    const reader = await openSocket(); // anonymous: the list is public, so is the channel
    const writer = await openSocket({ cookie });
    try {
      reader.socket.send(JSON.stringify({ messageType: "subscribe", messageId: "s", channel: "messages" }));
      await waitFor(() => reader.received.some((message) => message.messageId === "s"));
      expect(reader.received).toContainEqual({ messageId: "s", subscribed: { channel: "messages" } });

      // Posted over HTTP and over the WebSocket, the same way: one event each.
      const posted = await fetch(`${serverUrl()}/api/message`, {
        method: "PUT",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ body: "over HTTP" }),
      });
      expect(posted.status).toBe(200);
      writer.socket.send(JSON.stringify({ messageType: "action", messageId: "p", action: "message:create", params: { body: "over the socket" } }));

      const events = () => reader.received.filter((message) => message.messageType === "message");
      await waitFor(() => events().length === 2);
      expect(events()).toEqual([
        { messageType: "message", channel: "messages", message: { id: 1, body: "over HTTP", user_name: "Ada Lovelace" } },
        { messageType: "message", channel: "messages", message: { id: 2, body: "over the socket", user_name: "Ada Lovelace" } },
      ]);
    } finally {
      reader.socket.close();
      writer.socket.close();
    }
  });

  test("a refused post is neither stored nor published", async () => {
    await createUser(ada);
    const cookie = await signIn();
    const reader = await openSocket();
    try {
      reader.socket.send(JSON.stringify({ messageType: "subscribe", messageId: "s", channel: "messages" }));
      await waitFor(() => reader.received.some((message) => message.messageId === "s"));
      reader.socket.send(JSON.stringify({ messageType: "action", messageId: "p", action: "message:create", params: { body: "anonymous" } }));
      await waitFor(() => reader.received.some((message) => message.messageId === "p"));
      expect(reader.received.find((message) => message.messageId === "p").error).toMatchObject({ type: "CONNECTION_NOT_AUTHENTICATED" });

      await fetch(`${serverUrl()}/api/message`, {
        method: "PUT",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ body: "signed in" }),
      });
      // One channel's messages arrive in the order they were published: the refused post would come first.
      const events = () => reader.received.filter((message) => message.messageType === "message");
      await waitFor(() => events().length > 0);
      expect(events()).toEqual([{ messageType: "message", channel: "messages", message: { id: 1, body: "signed in", user_name: "Ada Lovelace" } }]);
    } finally {
      reader.socket.close();
    }
  });
});

describe("the messages resource over MCP", () => {
  test("an MCP client listening on herald://messages is told of each new message, and reads the list again", async () => {
    await createUser(ada);
    const cookie = await signIn();
    const client = new Client({ name: "listening", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serverUrl()}/mcp`)));
    try {
      const updated: string[] = [];
      client.setNotificationHandler("notifications/resources/updated", (notification) => void updated.push(notification.params.uri));
      await client.listen({ resourceSubscriptions: ["herald://messages"] });
      const posted = await fetch(`${serverUrl()}/api/message`, {
        method: "PUT",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ body: "news" }),
      });
      expect(posted.status).toBe(200);
      await waitFor(() => updated.length === 1);
      expect(updated).toEqual(["herald://messages"]);
      const read = await client.readResource({ uri: "herald://messages" });
      expect(JSON.parse((read.contents[0] as { text: string }).text).messages).toEqual([{ id: 1, body: "news", user_name: "Ada Lovelace" }]);
    } finally {
      await client.close();
    }
  });
});
