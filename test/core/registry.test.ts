import { join } from "node:path";
import { z } from "zod";
import {
  Action,
  ActionRegistry,
  CONNECTION_TYPE,
  ErrorType,
  HTTP_METHOD,
  Mcp,
  Task,
  TypedError,
  Web,
  createHerald,
  injectable,
  rootContainer,
} from "herald";

const fixtures = join(__dirname, "../fixtures/apps");

async function bootError(app: string): Promise<TypedError> {
  const server = createHerald({ appDir: join(fixtures, app), env: { NODE_ENV: "test" } });
  try {
    await server.boot();
  } catch (error) {
    return error as TypedError;
  } finally {
    await server.stop();
  }
  throw new Error(`${app} booted`);
}

@injectable()
class Clock {
  now() {
    return 42;
  }
}

const inputs = z.object({ id: z.coerce.number() });
const middleware = [{ runBefore: async () => undefined }];

@Action({
  name: "thing:view",
  description: "Shows a thing",
  inputs,
  middleware,
  timeout: 500,
  transports: [CONNECTION_TYPE.web, CONNECTION_TYPE.cli, CONNECTION_TYPE.task, CONNECTION_TYPE.mcp],
})
@Web({ route: "/thing/:id", method: HTTP_METHOD.GET })
@Task({ queue: "default", frequency: 1000 })
@Mcp({ tool: true, prompt: true })
class DecoratedThing {
  constructor(readonly clock: Clock) {}
  async run() {
    return this.clock.now();
  }
}

class PlainThing {
  constructor(readonly clock: Clock) {}
  name = "thing:view";
  description = "Shows a thing";
  inputs = inputs;
  middleware = middleware;
  timeout = 500;
  web = { route: "/thing/:id", method: HTTP_METHOD.GET };
  task = { queue: "default", frequency: 1000 };
  mcp = { tool: true, prompt: true };
  transports = ["web", "cli", "task", "mcp"] as const;
  async run() {
    return this.clock.now();
  }
}

const MEMBERS = ["name", "description", "inputs", "middleware", "timeout", "web", "task", "mcp", "transports"] as const;

describe("decorated and plain actions", () => {
  test("give the same registry entry", () => {
    const container = rootContainer.createChildContainer();
    const decorated = new ActionRegistry(container).add(container.resolve(DecoratedThing) as never);
    const plain = new ActionRegistry(container).add(new PlainThing(new Clock()));
    for (const member of MEMBERS) {
      expect((decorated.action as any)[member]).toEqual((plain.action as any)[member]);
    }
    expect(decorated.middleware).toEqual(plain.middleware);
  });

  test("a decorated class is injectable: its constructor gets its services", async () => {
    const container = rootContainer.createChildContainer();
    const instance = container.resolve(DecoratedThing);
    expect(await instance.run()).toBe(42);
  });

  test("middleware listed as a class is resolved through the container", () => {
    @injectable()
    class Stamp {
      constructor(readonly clock: Clock) {}
      async runBefore() {
        return undefined;
      }
    }
    const container = rootContainer.createChildContainer();
    const entry = new ActionRegistry(container).add({ name: "a:b", middleware: [Stamp], run: async () => null });
    expect(entry.middleware[0]).toBeInstanceOf(Stamp);
    expect((entry.middleware[0] as Stamp).clock).toBeInstanceOf(Clock);
  });
});

describe("boot fails with SERVER_INITIALIZATION", () => {
  test("on a duplicate action name, naming both files", async () => {
    const error = await bootError("duplicate");
    expect(error.type).toBe(ErrorType.SERVER_INITIALIZATION);
    expect(error.message).toContain(join(fixtures, "duplicate/actions/one.ts"));
    expect(error.message).toContain(join(fixtures, "duplicate/actions/two.ts"));
  });

  test("on two actions claiming one route and method, naming both", async () => {
    const error = await bootError("route-clash");
    expect(error.type).toBe(ErrorType.SERVER_INITIALIZATION);
    expect(error.message).toMatch(/GET \/list.*"list:a".*clash\.ts.*"list:b".*clash\.ts/);
  });

  test("on a name not of shape <group>:<verb>", async () => {
    const error = await bootError("bad-name");
    expect(error.type).toBe(ErrorType.SERVER_INITIALIZATION);
    expect(error.message).toContain('"nocolon"');
    expect(error.message).toContain("<group>:<verb>");
  });

  test("on a class that cannot be instantiated, naming the class and file", async () => {
    const error = await bootError("broken-ctor");
    expect(error.type).toBe(ErrorType.SERVER_INITIALIZATION);
    expect(error.message).toContain("Broken");
    expect(error.message).toContain("broken.ts");
    expect(error.message).toContain("cannot build me");
  });

  test("on an export that is not an action", () => {
    const registry = new ActionRegistry(rootContainer.createChildContainer());
    expect(() => registry.add({ name: "x:y" } as never, "somewhere.ts")).toThrow(/somewhere\.ts.*not an action/);
  });

  test("the same route with another method is fine", () => {
    const registry = new ActionRegistry(rootContainer.createChildContainer());
    registry.add({ name: "a:get", web: { route: "/a", method: "GET" }, run: async () => null });
    registry.add({ name: "a:put", web: { route: "/a", method: "PUT" }, run: async () => null });
    expect(registry.list().map((entry) => entry.name)).toEqual(["a:get", "a:put"]);
  });
});
