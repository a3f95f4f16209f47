import { join } from "node:path";
import { createHerald, RUN_MODE, rootContainer, type Initializer } from "herald";
import { Journal } from "../fixtures/apps/lifecycle/services/journal";

/**
 * The order in which Herald's own initializers (and an app initializer that sets neither
 * `priority` nor `dependsOn`, `web-only` here) initialize, start and stop, in each run mode. The
 * lifecycle fixture app's `database` and `cache`, which set them, are left out.
 */
const appDir = join(__dirname, "../fixtures/apps/lifecycle");
const HOOKS = ["initialize", "start", "stop"] as const;
const LEFT_OUT = new Set(["database", "cache"]);

async function bootOrder(runMode: RUN_MODE): Promise<string[]> {
  const container = rootContainer.createChildContainer();
  container.registerInstance(Journal, new Journal());
  const server = createHerald({ appDir, runMode, container, env: { NODE_ENV: "test", PORT: "0", LOG_LEVEL: "fatal" } });
  await server.load();
  const calls: string[] = [];
  for (const initializer of server.initializers) {
    if (LEFT_OUT.has(initializer.name)) continue;
    for (const hook of HOOKS) {
      const original = initializer[hook];
      if (!original) continue;
      (initializer as Initializer)[hook] = () => {
        calls.push(`${initializer.name}:${hook}`);
        return original.call(initializer);
      };
    }
  }
  try {
    await server.start();
  } finally {
    await server.stop();
  }
  return calls;
}

test("server: the transports start once the app's initializers are up, and stop first", async () => {
  expect(await bootOrder(RUN_MODE.server)).toEqual([
    "channels:initialize",
    "sessions:initialize",
    "tasks:initialize",
    "oauth:initialize",
    "openapi:initialize",
    "mcp:initialize",
    "web:initialize",
    "websocket:initialize",
    "database-pool-metrics:initialize",
    "channels:start",
    "web-only:start",
    "task-workers:start",
    "web:start",
    "websocket:start",
    "cli-socket:start",
    "cli-socket:stop",
    "websocket:stop",
    "web:stop",
    "task-workers:stop",
    "web-only:stop",
    "idempotency:stop",
    "rate-limit:stop",
    "mcp:stop",
    "oauth:stop",
    "tasks:stop",
    "sessions:stop",
    "channels:stop",
    // Last, so the spans of the calls made while stopping are flushed.
    "traces:stop",
  ]);
});

test("workers: the task workers start after the app's initializers, and stop before them", async () => {
  expect(await bootOrder(RUN_MODE.workers)).toEqual([
    "channels:initialize",
    "sessions:initialize",
    "tasks:initialize",
    "database-pool-metrics:initialize",
    "channels:start",
    "metrics-port:start",
    "task-workers:start",
    "task-workers:stop",
    "metrics-port:stop",
    "idempotency:stop",
    "rate-limit:stop",
    "tasks:stop",
    "sessions:stop",
    "channels:stop",
    // Last, so the spans of the calls made while stopping are flushed.
    "traces:stop",
  ]);
});

test.each([RUN_MODE.cli, RUN_MODE.mcp])("%s: what the app's code uses, and no transport", async (runMode) => {
  expect(await bootOrder(runMode)).toEqual([
    "channels:initialize",
    "sessions:initialize",
    "tasks:initialize",
    "channels:start",
    "idempotency:stop",
    "rate-limit:stop",
    "tasks:stop",
    "sessions:stop",
    "channels:stop",
    // Last, so the spans of the calls made while stopping are flushed.
    "traces:stop",
  ]);
});
