import { join } from "node:path";
import { Connection, CONNECTION_TYPE, ErrorType, HeraldServer, RUN_MODE, rootContainer } from "herald";
import { jsonLogs } from "../support/json-logs";
import { MiddlewareJournal } from "../fixtures/apps/middleware-folder/services/journal";

const appDir = join(__dirname, "../fixtures/apps/middleware-folder");
const cli = () => new Connection({ type: CONNECTION_TYPE.cli });

async function started(dir = appDir) {
  const logs = jsonLogs();
  const server = new HeraldServer({
    appDir: dir,
    runMode: RUN_MODE.cli,
    env: { NODE_ENV: "test", LOG_LEVEL: "warn", LOG_FORMAT: "json" },
    container: rootContainer.createChildContainer(),
    logDestination: logs.stream,
  });
  await server.start();
  return { server, logs: logs.lines };
}

describe("the app's middleware folder", () => {
  let server: HeraldServer;
  let logs: Record<string, any>[];
  beforeAll(async () => {
    ({ server, logs } = await started());
  });
  afterAll(() => server.stop());

  test("a class no action lists and not marked global is never built, and the boot names it; one a channel lists is in use", () => {
    const warnings = logs.filter((line) => line.level === 40).map((line) => line.msg as string);
    for (const name of ["Unused", "InstanceFormGlobal"]) {
      const warning = warnings.find((message) => message.startsWith(`middleware ${name} in `));
      expect(warning).toContain(join(appDir, "middleware/unused.ts"));
      expect(warning).toContain("not used by any action and not global (`static global = true`): not built");
    }
    expect(warnings.filter((message) => /middleware (Late|Early|CDefault|DDefault|Counted|RoomGuard) /.test(message))).toEqual([]);
  });

  test("the classes marked `static global = true` run around every action, lowest priority first, then file order", async () => {
    const globalOrder = ["early", "c-default", "d-default", "late"];
    expect((await server.runAction("trail:bare", {}, cli())).response).toEqual({ trail: globalOrder });
    expect((await server.runAction("trail:one", {}, cli())).response).toEqual({ trail: [...globalOrder, "counted"] });
  });

  test("a class listed by several actions is built once", async () => {
    expect((await server.runAction("trail:two", {}, cli())).response).toEqual({
      trail: ["early", "c-default", "d-default", "late", "counted"],
    });
    expect(server.container.resolve(MiddlewareJournal).events).toEqual(["counted:built"]);
    const [one, two] = ["trail:one", "trail:two"].map((name) => server.registry.get(name)!.middleware[0]);
    expect(one).toBe(two);
  });
});

test("a listed class that still says `global = true` on its instances fails the boot, naming it and the static form", async () => {
  const dir = join(__dirname, "../fixtures/apps/middleware-instance-global");
  const failure = await started(dir).then(
    async ({ server }) => {
      await server.stop();
      return undefined;
    },
    (error: Error) => error,
  );
  expect(failure).toMatchObject({ type: ErrorType.SERVER_INITIALIZATION });
  expect(failure!.message).toContain(`Middleware InstanceGlobal in ${join(dir, "middleware/instance-global.ts")}`);
  expect(failure!.message).toContain("`static readonly global = true`");
});
