import { join } from "node:path";
import { waitFor } from "herald/testing";
import { WsClient, type ServerMessage } from "../reliability/support/ws-client";
import { useTopology } from "./support/topology";

/**
 * Presence on the topology of docs/deployment.md: sockets through the balancer land on different
 * web processes, and one presence channel spans them.
 */
const topology = useTopology("presence", {
  appDir: join(__dirname, "fixtures/app"),
  // Members of a process that died without leaving are swept within about a second.
  env: { PRESENCE_TTL: "900" },
});

const presence = (socket: WsClient, event: "join" | "leave"): string[] =>
  socket.received.filter((message: ServerMessage) => message.messageType === "presence" && message.channel === "room" && message.event === event).map((message) => message.presenceKey as string);

test("sockets on three processes see each other join one presence channel, and leave when their process is killed", async () => {
  const sockets: WsClient[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const socket = await WsClient.open(topology.url);
      expect(await socket.request({ messageType: "subscribe", channel: "room" })).toMatchObject({ subscribed: { channel: "room" } });
      // Its own join comes to it too: the first key it hears is its own.
      await waitFor(() => presence(socket, "join").length > 0);
      sockets.push(socket);
    }
    const keys = sockets.map((socket) => presence(socket, "join")[0]!);
    expect(new Set(keys).size).toBe(3);
    const pids = await Promise.all(sockets.map(async (socket) => (await socket.call("process:which")).response.pid as number));
    expect(new Set(pids).size).toBe(3);
    // The first socket heard the others join, through the processes that hold them.
    await waitFor(() => keys.every((key) => presence(sockets[0]!, "join").includes(key)));

    // The third socket's process dies without a word: a live process sweeps its member and announces the leave.
    const holder = topology.web.find((web) => web.pid === pids[2])!;
    holder.signal("SIGKILL");
    await holder.exited;
    await waitFor(() => presence(sockets[0]!, "leave").includes(keys[2]!) && presence(sockets[1]!, "leave").includes(keys[2]!), { timeout: 15_000 });
    expect(presence(sockets[0]!, "leave")).toEqual([keys[2]]);
  } finally {
    await Promise.all(sockets.slice(0, 2).map((socket) => socket.close()));
  }
});
