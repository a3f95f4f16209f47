import { request } from "node:http";
import { join } from "node:path";
import type { HeraldServer } from "herald";
import { startTestServer } from "herald/testing";

// `rateLimit({ name: "ip", limit: 3 })` on GET /api/limited/ip, counted in the process.
const APP = join(__dirname, "../security/fixtures/rate-limit-app");

async function withServer(env: Record<string, string>, check: (server: HeraldServer) => Promise<void>): Promise<void> {
  // "::" listens on IPv6 and, as IPv4-mapped addresses, on IPv4: the server sees both families.
  const server = await startTestServer({ appDir: APP, env: { REDIS_URL: "", LOG_LEVEL: "fatal", HOST: "::", ...env } });
  try {
    await check(server);
  } finally {
    await server.stop();
  }
}

/** GET /api/limited/ip over a real socket to `host`, from `localAddress`; resolves with the status. */
function limited(server: HeraldServer, host: string, options: { localAddress?: string; forwardedFor?: string } = {}): Promise<number> {
  const { port } = new URL(server.url!);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host,
        port,
        path: "/api/limited/ip",
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        headers: options.forwardedFor ? { "x-forwarded-for": options.forwardedFor } : {},
        agent: false,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

test("the IPv6 addresses of one /64 share one budget; another /64 has its own (forwarded over a real ::1 socket by a trusted proxy)", async () => {
  await withServer({ HTTP_TRUST_PROXY: "loopback" }, async (server) => {
    const sameNetwork = ["2001:db8:1:2::a", "2001:db8:1:2::b", "2001:db8:1:2:ffff::c"];
    for (const forwardedFor of sameNetwork) expect(await limited(server, "::1", { forwardedFor })).toBe(200);
    expect(await limited(server, "::1", { forwardedFor: "2001:db8:1:2::d" })).toBe(429);
    expect(await limited(server, "::1", { forwardedFor: "2001:db8:1:3::a" })).toBe(200);
  });
});

test("IPv4 peers reaching an IPv6 listener as IPv4-mapped addresses are counted apart, per IPv4 address", async () => {
  await withServer({}, async (server) => {
    for (let call = 0; call < 3; call += 1) expect(await limited(server, "127.0.0.1", { localAddress: "127.0.0.2" })).toBe(200);
    expect(await limited(server, "127.0.0.1", { localAddress: "127.0.0.2" })).toBe(429);
    // Another IPv4 address, and the IPv6 loopback, are other callers.
    expect(await limited(server, "127.0.0.1", { localAddress: "127.0.0.3" })).toBe(200);
    expect(await limited(server, "::1")).toBe(200);
  });
});
