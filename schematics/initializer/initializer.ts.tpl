import type { Initializer } from "herald";

/**
 * Boot work for the app. The server calls `register` on every initializer, then `initialize`, then
 * `start`, in boot order (Herald's initializers that provide services, then the app's by
 * priority, lower first, then the web server), and `stop` in reverse order at shutdown.
 */
export class {{className}} implements Initializer {
  name = "{{initializerName}}";
  priority = 1000;

  async initialize(): Promise<void> {
    // Open what the app needs here: a pool, a client, a cache.
  }

  async start(): Promise<void> {
    // Begin the work that needs every initializer ready: listeners, schedules.
  }

  async stop(): Promise<void> {
    // Release what initialize and start opened.
  }
}
