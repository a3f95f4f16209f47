import { join } from "node:path";
import { ChannelPublisher, Connection, CONNECTION_TYPE, createHerald, RUN_MODE } from "herald";
import { ClockInitializer } from "../fixtures/apps/registration/initializers/clock";

const appDir = join(__dirname, "../fixtures/apps/registration");

test("register runs before anything is built that takes what it registers: the app's initializers after Herald's register, the actions after the app's", async () => {
  const server = createHerald({ appDir, runMode: RUN_MODE.cli, env: { NODE_ENV: "test", LOG_LEVEL: "fatal" } });
  await server.load();
  try {
    const clock = server.initializers.find((initializer) => initializer.name === "clock") as ClockInitializer;
    expect(clock.publisher).toBe(server.container.resolve(ChannelPublisher));
    await server.start();
    const result = await server.runAction("clock:now", {}, new Connection({ type: CONNECTION_TYPE.cli }));
    expect(result.response).toEqual({ now: "noon" });
  } finally {
    await server.stop();
  }
});

test("an initializer that does not apply to the run mode does not register (web-only registers only in the server run mode, where it throws)", async () => {
  const server = createHerald({ appDir, runMode: RUN_MODE.cli, env: { NODE_ENV: "test", LOG_LEVEL: "fatal" } });
  await expect(server.load()).resolves.toBe(server);
  expect(server.initializers.map((initializer) => initializer.name)).not.toContain("web-only");
  const serving = createHerald({ appDir, runMode: RUN_MODE.server, env: { NODE_ENV: "test", LOG_LEVEL: "fatal", PORT: "0" } });
  await expect(serving.load()).rejects.toThrow("web-only registers");
});
