import type Redis from "ioredis";

/**
 * Closes a client and resolves when its connection has ended: QUIT when connected (what was sent
 * is answered first), else drop it, which also cancels a pending reconnection (QUIT on a
 * connection still reconnecting would connect first).
 */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === "end") return;
  if (client.status !== "ready") {
    client.disconnect();
    return;
  }
  const ended = new Promise((resolve) => client.once("end", resolve));
  await client.quit().catch(() => client.disconnect());
  await ended;
}
