import { Connection, CONNECTION_TYPE, ErrorType, HTTP_METHOD, type ActionTransport } from "herald";
import type { ActionDefinition } from "../../src/core/action";
import { pipeline } from "../support/pipeline";
import { ActionRegistry } from "../../src/core/registry";
import { rootContainer } from "../../src/core/container";
import { servingTransports } from "../../src/core/action-transports";

const EVERY: CONNECTION_TYPE[] = Object.values(CONNECTION_TYPE);

function guarded(transports: readonly ActionTransport[], events: string[]): ActionDefinition {
  return {
    name: "vault:open",
    transports,
    middleware: [{ runBefore: async () => void events.push("runBefore"), runAfter: async () => void events.push("runAfter") }],
    run: async () => {
      events.push("run");
      return { opened: true };
    },
  };
}

/** What a caller learns from a result: everything but the duration, with the action's name as `<name>`. */
function asSeen(result: { status: number; error?: { message: string; type: string; key?: string; value?: unknown } }, name: string) {
  const { status, error } = result;
  return {
    status,
    error: error && { message: error.message.replace(name, "<name>"), type: error.type, key: error.key, value: error.value === name ? "<name>" : error.value },
  };
}

describe("the dispatcher and an action's transports", () => {
  test.each(EVERY)("a %s call of an action that leaves it out is answered as one of an unknown name, and nothing runs", async (type) => {
    const events: string[] = [];
    const { dispatcher, logs } = pipeline([guarded(EVERY.filter((other) => other !== type), events)]);
    const refused = await dispatcher.run("vault:open", {}, new Connection({ type }));
    const unknown = await dispatcher.run("vault:shut", {}, new Connection({ type }));
    expect(refused.status).toBe(404);
    expect(refused.error?.type).toBe(ErrorType.CONNECTION_ACTION_NOT_FOUND);
    expect(asSeen(refused, "vault:open")).toEqual(asSeen(unknown, "vault:shut"));
    expect(events).toEqual([]);
    // The request log shows the two alike too: same fields, same message.
    const [refusedLine, unknownLine] = logs.filter((line) => line.msg === "action");
    expect(Object.keys(refusedLine!).sort()).toEqual(Object.keys(unknownLine!).sort());
    expect(refusedLine!.error).toEqual({ type: ErrorType.CONNECTION_ACTION_NOT_FOUND, message: 'Unknown action "vault:open"' });
  });

  test.each(EVERY)("a %s call of an action that lists it runs", async (type) => {
    const events: string[] = [];
    const { dispatcher } = pipeline([guarded([type], events)]);
    const result = await dispatcher.run("vault:open", {}, new Connection({ type }));
    expect(result).toMatchObject({ status: 200, response: { opened: true } });
    expect(events).toEqual(["runBefore", "run", "runAfter"]);
  });

  test("without transports, every connection type may call the action", async () => {
    const { dispatcher } = pipeline([{ name: "open:door", run: async () => "open" }]);
    for (const type of EVERY) expect((await dispatcher.run("open:door", {}, new Connection({ type }))).response).toBe("open");
  });
});

describe("transports checked at boot", () => {
  const add = (action: Partial<ActionDefinition>) =>
    new ActionRegistry(rootContainer.createChildContainer()).add({ name: "vault:open", run: async () => null, ...action } as ActionDefinition, "actions/vault.ts");

  test.each([
    ["a web route", { web: { route: "/vault", method: HTTP_METHOD.POST }, transports: ["websocket", "cli"] }, '"web"'],
    ["a task", { task: { queue: "default" }, transports: ["web", "cli"] }, '"task"'],
    ["an MCP tool", { mcp: { tool: true }, transports: ["cli"] }, '"mcp"'],
    ["an MCP resource", { mcp: { tool: false, resource: true }, transports: ["cli"] }, '"mcp"'],
    ["no transport at all", { transports: [] }, "at least one transport"],
    ["a transport that does not exist", { transports: ["cli", "http"] }, '"http"'],
  ] as const)("%s that its transports contradict or cannot have fails the boot, naming the action", (_label, members, detail) => {
    let thrown: unknown;
    try {
      add(members as Partial<ActionDefinition>);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ type: ErrorType.SERVER_INITIALIZATION, key: "transports" });
    expect((thrown as Error).message).toContain('Action "vault:open" in actions/vault.ts');
    expect((thrown as Error).message).toContain(detail);
  });

  test("mcp: { tool: false } beside transports without MCP is no contradiction", () => {
    expect(() => add({ mcp: { tool: false }, transports: ["task", "cli"], task: { queue: "default" } })).not.toThrow();
  });
});

describe("servingTransports: where an action is reached", () => {
  test("without transports: WebSocket and the CLI always, web, task and MCP by their members", () => {
    expect(servingTransports({ name: "a:b", run: async () => null })).toEqual(["websocket", "cli", "mcp"]);
    expect(
      servingTransports({ name: "a:b", web: { route: "/a", method: "GET" }, task: { queue: "q" }, mcp: { tool: false }, run: async () => null }),
    ).toEqual(["web", "websocket", "cli", "task"]);
    expect(servingTransports({ name: "a:b", mcp: { tool: false, prompt: true }, run: async () => null })).toEqual(["websocket", "cli", "mcp"]);
  });

  test("with transports: only those", () => {
    expect(servingTransports({ name: "a:b", task: { queue: "q" }, transports: ["task", "cli"], run: async () => null })).toEqual(["cli", "task"]);
  });
});
