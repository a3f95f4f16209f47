/**
 * Type-level checks of `transports`: `tsc --noEmit` fails when a transport name stops being
 * checked (an unused `@ts-expect-error`) or a correct list stops compiling.
 */
import { Action, ActionRegistry, CONNECTION_TYPE, rootContainer, type ActionTransport } from "herald";

class WithEnumMembers implements Action {
  name = "enum:members";
  transports = [CONNECTION_TYPE.task, CONNECTION_TYPE.cli];
  async run() {
    return null;
  }
}

class WithStrings implements Action {
  name = "string:members";
  transports = ["websocket", "mcp"] as const;
  async run() {
    return null;
  }
}

class WithUnknownTransport implements Action {
  name = "unknown:member";
  // @ts-expect-error "http" is no transport: the web's is "web"
  transports = ["http"] as const;
  async run() {
    return null;
  }
}

@Action({ name: "decorated:option", transports: ["web", "cli"] })
class WithDecoratorOption {
  async run() {
    return null;
  }
}

// @ts-expect-error "queue" is no transport
@Action({ name: "decorated:unknown", transports: ["queue"] })
class WithUnknownDecoratorOption {
  async run() {
    return null;
  }
}

const everyTransport: ActionTransport[] = ["web", "websocket", "cli", "task", "mcp", ...Object.values(CONNECTION_TYPE)];

test("the lists tsc accepts are the ones the registry accepts, and the names it refuses are refused at boot too", () => {
  const registry = new ActionRegistry(rootContainer.createChildContainer());
  for (const action of [new WithEnumMembers(), new WithStrings(), new WithDecoratorOption()]) expect(() => registry.add(action as never)).not.toThrow();
  for (const action of [new WithUnknownTransport(), new WithUnknownDecoratorOption()]) {
    expect(() => registry.add(action as never)).toThrow(/lists unknown transports/);
  }
  expect(new Set(everyTransport).size).toBe(5);
});
