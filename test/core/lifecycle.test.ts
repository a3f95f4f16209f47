import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType, HeraldServer, RUN_MODE, TypedError, rootContainer } from "herald";
import { startTestServer } from "herald/testing";
import { Journal } from "../fixtures/apps/lifecycle/services/journal";
import { Mailer } from "../fixtures/apps/lifecycle/services/mailer";

const appDir = join(__dirname, "../fixtures/apps/lifecycle");
const cli = () => new Connection({ type: CONNECTION_TYPE.cli });

function freshServer(runMode: RUN_MODE, extra: Partial<ConstructorParameters<typeof HeraldServer>[0]> = {}) {
  const container = rootContainer.createChildContainer();
  // Journal is a singleton; a fresh instance per server keeps tests apart.
  container.registerInstance(Journal, new Journal());
  return new HeraldServer({ appDir, runMode, env: { NODE_ENV: "test" }, container, ...extra });
}

test("initializers run in dependency then priority order, and stop in reverse", async () => {
  const server = freshServer(RUN_MODE.server);
  await server.start();
  await server.stop();
  expect(server.container.resolve(Journal).events).toEqual([
    "database:initialize",
    "cache:initialize",
    "database:start",
    "web-only:start",
    "web-only:stop",
    "cache:stop",
    "database:stop",
  ]);
});

test("initializers that do not apply to the run mode are skipped", async () => {
  const server = freshServer(RUN_MODE.cli);
  await server.start();
  await server.stop();
  expect(server.initializers.map((initializer) => initializer.name)).toEqual(["database", "cache"]);
  expect(server.container.resolve(Journal).events).not.toContain("web-only:start");
});

test("global middleware from the middleware folder runs for every action", async () => {
  const server = freshServer(RUN_MODE.cli);
  await server.start();
  const result = await server.runAction("mail:send", { to: "ada" }, cli());
  await server.stop();
  expect(result.response).toEqual({ sent: "real mail to ada", stamped: true });
  expect(server.container.resolve(Journal).events).toContain("stamp:before on primary");
});

test("middleware is built after the initializers, so it takes what they registered as they were built", async () => {
  const server = freshServer(RUN_MODE.cli);
  await expect(server.load()).resolves.toBe(server);
});

test("provider overrides replace a service before boot, in that server only", async () => {
  class FakeMailer {
    send(to: string) {
      return `fake mail to ${to}`;
    }
  }
  const overridden = await startTestServer({ appDir, providers: [{ token: Mailer, useClass: FakeMailer }] });
  const plain = await startTestServer({ appDir });
  try {
    expect((await overridden.runAction("mail:send", { to: "ada" }, cli())).response).toMatchObject({ sent: "fake mail to ada" });
    expect((await plain.runAction("mail:send", { to: "ada" }, cli())).response).toMatchObject({ sent: "real mail to ada" });
  } finally {
    await overridden.stop();
    await plain.stop();
  }
});

test("an initializer that fails to initialize stops the ones already up and names itself", async () => {
  const failing = freshServer(RUN_MODE.cli, {
    builtins: [
      class Exploding {
        name = "exploding";
        priority = 500;
        dependsOn = ["cache"];
        async initialize() {
          throw new Error("no disk");
        }
      },
    ],
  });
  const error = (await failing.boot().catch((thrown) => thrown)) as TypedError;
  expect(error).toBeInstanceOf(TypedError);
  expect(error.type).toBe(ErrorType.SERVER_INITIALIZATION);
  expect(error.message).toContain('"exploding"');
  expect(error.message).toContain("no disk");
  expect(failing.container.resolve(Journal).events).toEqual([
    "database:initialize",
    "cache:initialize",
    "cache:stop",
    "database:stop",
  ]);
  expect(failing.status).toBe("stopped");
});

test("a start that fails leaves the server stopped, with every initializer stopped: nothing is left for its caller to stop", async () => {
  const failing = freshServer(RUN_MODE.cli, {
    builtins: [
      class Refusing {
        name = "refusing";
        dependsOn = ["cache"];
        async start() {
          throw new Error("port taken");
        }
      },
    ],
  });
  await expect(failing.start()).rejects.toMatchObject({ type: ErrorType.SERVER_START });
  expect(failing.status).toBe("stopped");
  expect(failing.container.resolve(Journal).events.slice(-2)).toEqual(["cache:stop", "database:stop"]);
});

test("a dependency cycle or a missing dependency is refused at boot", async () => {
  const cycle = freshServer(RUN_MODE.cli, {
    builtins: [
      class A {
        name = "a";
        dependsOn = ["b"];
        async initialize() {}
      },
      class B {
        name = "b";
        dependsOn = ["a"];
        async initialize() {}
      },
    ],
  });
  await expect(cycle.boot()).rejects.toThrow(/cycle/);
  const missing = freshServer(RUN_MODE.cli, {
    builtins: [
      class C {
        name = "c";
        dependsOn = ["nowhere"];
        async initialize() {}
      },
    ],
  });
  await expect(missing.boot()).rejects.toThrow(/"nowhere"/);
});

test("stop is idempotent and a failing stop does not keep the others from stopping", async () => {
  const server = freshServer(RUN_MODE.cli, {
    builtins: [
      class Stubborn {
        name = "stubborn";
        priority = 2000;
        async stop() {
          throw new Error("will not stop");
        }
      },
    ],
  });
  await server.start();
  await expect(server.stop()).rejects.toMatchObject({ type: ErrorType.SERVER_STOP });
  await server.stop();
  expect(server.container.resolve(Journal).events.slice(-2)).toEqual(["cache:stop", "database:stop"]);
});

test("a bad environment fails boot with CONFIG_ERROR", async () => {
  const server = freshServer(RUN_MODE.cli, { env: { NODE_ENV: "test", ACTION_TIMEOUT: "soon" } });
  await expect(server.boot()).rejects.toMatchObject({ type: ErrorType.CONFIG_ERROR, key: "ACTION_TIMEOUT" });
});

test("a useClass override is one instance per server, shared by the app and the test", async () => {
  class CountingMailer {
    sent: string[] = [];
    send(to: string) {
      this.sent.push(to);
      return `counted ${to}`;
    }
  }
  const server = await startTestServer({ appDir, providers: [{ token: Mailer, useClass: CountingMailer }] });
  try {
    await server.runAction("mail:send", { to: "ada" }, cli());
    expect((server.container.resolve(Mailer) as unknown as CountingMailer).sent).toEqual(["ada"]);
  } finally {
    await server.stop();
  }
});
