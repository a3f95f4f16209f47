import { join } from "node:path";
import { ErrorType, WS_CLOSE_CODE } from "herald";
import { useTestServer, waitFor } from "herald/testing";
import { type ServerMessage, TestSocket, wsUrl } from "./support/test-socket";
import { jsonLogs, type LogLine } from "../../support/json-logs";

// Every address of 127/8 is loopback on Linux: a client bound to another one is another caller.
const FLOODER = "127.0.0.1";
const OTHER = "127.0.0.2";

const appDir = join(__dirname, "../../fixtures/apps/websocket");

function useServerWith(env: Record<string, string>): LogLine[] {
  const { stream, lines } = jsonLogs();
  useTestServer({ appDir, env: { REDIS_URL: "", LOG_FORMAT: "json", LOG_LEVEL: "info", ...env }, logDestination: stream });
  return lines;
}

const openFrom = (localAddress: string) => TestSocket.open(wsUrl(), { localAddress });
const echo = (messageId: string) => ({ messageType: "action", messageId, action: "ws:echo", params: { text: messageId } });
const ranTexts = (logs: LogLine[], prefix: string) => new Set(logs.map((line) => line.params?.text).filter((text) => String(text).startsWith(prefix)));

describe("one budget for all the sockets of an address", () => {
  useServerWith({ WS_MAX_MESSAGES_PER_SECOND: "5", WS_FLOOD_BACKOFF: "0" });

  test("ten sockets of one address sending one message each are held to the address's budget; another address keeps its own", async () => {
    const sockets = await Promise.all(Array.from({ length: 10 }, () => openFrom(FLOODER)));
    const replies = Promise.all(sockets.map((socket, index) => socket.next((message) => message.messageId === `shared-${index}`)));
    sockets.forEach((socket, index) => socket.send(echo(`shared-${index}`)));
    const answered = await replies;
    // One message a socket is within any budget of one socket: only a budget the ten share refuses one.
    const limited = answered.filter((reply) => reply.error?.type === ErrorType.CONNECTION_RATE_LIMITED);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.error.value).toEqual({ limit: 5, retryAfter: 1 });
    const other = await openFrom(OTHER);
    expect((await other.action("ws:echo", { text: "other" })).response.text).toBe("other");
    await Promise.all([...sockets, other].map((socket) => socket.close()));
  });
});

describe("a flood of messages from one address", () => {
  const logs = useServerWith({ WS_MAX_MESSAGES_PER_SECOND: "20", WS_FLOOD_BACKOFF: "600000" });

  test("closes its sockets with 1008, running nothing past the budget and answering a bounded part of it, backs the address off, and serves another address meanwhile", async () => {
    const other = await openFrom(OTHER);
    const flooders = await Promise.all(Array.from({ length: 5 }, () => openFrom(FLOODER)));
    const perSocket = 200;
    for (const [index, socket] of flooders.entries()) {
      const batch = Array.from({ length: perSocket }, (_, message) => JSON.stringify(echo(`flood-${index}-${message}`)));
      for (const text of batch) socket.send(text);
    }
    expect((await other.action("ws:echo", { text: "during" })).response.text).toBe("during");

    const closes = await Promise.all(flooders.map((socket) => socket.closed));
    expect(closes.map(({ code }) => code)).toEqual(flooders.map(() => WS_CLOSE_CODE.messageFlood));

    // Logged in order: once this call is logged, every flood message that ran has been logged too.
    expect((await other.action("ws:echo", { text: "after" })).response.text).toBe("after");
    await waitFor(() => ranTexts(logs, "after").size === 1);
    const ran = ranTexts(logs, "flood-");
    const replies: ServerMessage[] = flooders.flatMap((socket) => socket.received);
    const refused = replies.filter((reply) => reply.error?.type === ErrorType.CONNECTION_RATE_LIMITED);
    expect(refused.length).toBeGreaterThan(0);
    for (const reply of refused) expect(ran.has(reply.messageId)).toBe(false);
    // What is answered is bounded by the address's allowance, not by the flood: most of it was neither run nor answered.
    expect(ran.size + refused.length).toBeLessThan((flooders.length * perSocket) / 2);
    expect(logs.filter((line) => line.msg === "websocket client keeps sending past its message budget: closing it").length).toBe(flooders.length);

    const backedOff = await TestSocket.refused(wsUrl(), { localAddress: FLOODER });
    expect(backedOff.status).toBe(429);
    expect(backedOff.body.error).toMatchObject({ type: ErrorType.CONNECTION_RATE_LIMITED });
    expect(Number(backedOff.headers["retry-after"])).toBeGreaterThan(0);
    expect(backedOff.body.error.value.retryAfter).toBe(Number(backedOff.headers["retry-after"]));

    const newcomer = await openFrom(OTHER);
    expect((await newcomer.action("ws:echo", { text: "newcomer" })).response.text).toBe("newcomer");
    await Promise.all([other.close(), newcomer.close()]);
  });
});

describe("a burst past the budget that stops", () => {
  useServerWith({ WS_MAX_MESSAGES_PER_SECOND: "20", WS_FLOOD_BACKOFF: "600000" });

  test("every call is answered, run or refused, and the socket stays open", async () => {
    const socket = await openFrom(FLOODER);
    const burst = 30;
    const replies = Array.from({ length: burst }, (_, message) => socket.next((reply) => reply.messageId === `burst-${message}`));
    for (let message = 0; message < burst; message += 1) socket.send(echo(`burst-${message}`));
    const answered = await Promise.all(replies);
    const refused = answered.filter((reply) => reply.error?.type === ErrorType.CONNECTION_RATE_LIMITED);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.filter((reply) => reply.response?.text === reply.messageId)).toHaveLength(burst - refused.length);
    // The socket still answers: served, or refused while the budget refills.
    const after = await socket.action("ws:echo", { text: "still open" });
    expect(after.response?.text === "still open" || after.error?.type === ErrorType.CONNECTION_RATE_LIMITED).toBe(true);
    await socket.close();
  });
});

describe("the end of a backoff", () => {
  useServerWith({ WS_MAX_MESSAGES_PER_SECOND: "5", WS_FLOOD_BACKOFF: "300" });

  test("an address closed for flooding may connect again once its backoff has passed", async () => {
    const flooder = await openFrom(FLOODER);
    for (let message = 0; message < 100; message += 1) flooder.send(echo(`burst-${message}`));
    expect((await flooder.closed).code).toBe(WS_CLOSE_CODE.messageFlood);
    const upgraded = async () => {
      try {
        const socket = await openFrom(FLOODER);
        await socket.close();
        return true;
      } catch {
        return false;
      }
    };
    await waitFor(upgraded, { timeout: 10_000, interval: 100 });
    const again = await openFrom(FLOODER);
    expect((await again.action("ws:echo", { text: "back" })).response.text).toBe("back");
    await again.close();
  });
});
