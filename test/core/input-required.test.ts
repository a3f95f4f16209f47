import { z } from "zod";
import { Connection, CONNECTION_TYPE, ErrorType, isInputRequired, type ActionMiddleware, type CallerInput, type RawAnswer } from "herald";
import type { ActionDefinition } from "../../src/core/action";
import { pipeline } from "../support/pipeline";

const nameForm = { form: { message: "Your name?", schema: z.object({ name: z.string().min(2) }) } };

/** The answers a transport that can ask would hand over, by key. */
function answering(answers: Record<string, RawAnswer>): CallerInput {
  return {
    retries: true,
    canAnswer: (kind) => kind !== "roots",
    answerOf: (key, question) => {
      const answer = answers[key];
      const of = answer && ("action" in answer ? "form" : "roots" in answer ? "roots" : "sample");
      return of !== undefined && of in question ? answer : undefined;
    },
  };
}

function asking(events: string[]): ActionDefinition {
  return {
    name: "ask:name",
    run: async (_params: unknown, connection: Connection) => {
      events.push("run");
      const { who } = await connection.ask({ who: nameForm });
      events.push("answered");
      return who.action === "accept" ? `Hello, ${who.content.name}` : who.action;
    },
  } as unknown as ActionDefinition;
}

function recorder(events: string[]): ActionMiddleware {
  return {
    name: "recorder",
    runBefore: async () => void events.push("before"),
    runAfter: async (_params, _connection, error) => void events.push(`after:${(error as { type?: string } | undefined)?.type ?? "none"}`),
  };
}

test("a caller that cannot be asked: 422 CONNECTION_INPUT_REQUIRED naming the keys, runAfter runs, logged at info as its own outcome", async () => {
  const events: string[] = [];
  const { run, logs } = pipeline([asking(events)], { globalMiddleware: [recorder(events)] });
  const result = await run("ask:name");
  expect(result).toMatchObject({ status: 422, error: { type: ErrorType.CONNECTION_INPUT_REQUIRED, key: "input", value: { keys: ["who"] } } });
  expect(result.error?.message).toBe("The action needs input its caller cannot give over cli: who");
  expect(isInputRequired(result.error) && result.error.askable).toBe(false);
  expect(events).toEqual(["before", "run", `after:${ErrorType.CONNECTION_INPUT_REQUIRED}`]);
  const lines = logs.filter((line) => line.action === "ask:name");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 30, msg: "input required", status: 422 });
  expect(lines[0]).not.toHaveProperty("err");
});

test("a caller that can be asked but has not answered: the open questions and no answer", async () => {
  const events: string[] = [];
  const { dispatcher } = pipeline([asking(events)]);
  const connection = new Connection({ type: CONNECTION_TYPE.mcp, callerInput: answering({}) });
  const result = await dispatcher.run("ask:name", {}, connection);
  expect(isInputRequired(result.error)).toBe(true);
  if (!isInputRequired(result.error)) return;
  expect(result.error.askable).toBe(true);
  expect(result.error.questions).toEqual({ who: nameForm });
  expect(result.error.answered).toEqual({});
  expect(events).toEqual(["run"]);
});

test("accepted content is parsed by the form's schema; content it refuses is asked for again", async () => {
  const { dispatcher } = pipeline([asking([])]);
  const accepted = new Connection({ type: CONNECTION_TYPE.mcp, callerInput: answering({ who: { action: "accept", content: { name: "Ada", extra: 1 } } }) });
  expect(await dispatcher.run("ask:name", {}, accepted)).toMatchObject({ status: 200, response: "Hello, Ada" });
  const refused = new Connection({ type: CONNECTION_TYPE.mcp, callerInput: answering({ who: { action: "accept", content: { name: "A" } } }) });
  const again = await dispatcher.run("ask:name", {}, refused);
  expect(again.error).toMatchObject({ type: ErrorType.CONNECTION_INPUT_REQUIRED, value: { keys: ["who"] } });
  const declined = new Connection({ type: CONNECTION_TYPE.mcp, callerInput: answering({ who: { action: "decline" } }) });
  expect(await dispatcher.run("ask:name", {}, declined)).toMatchObject({ status: 200, response: "decline" });
});

test("a later ask keeps what earlier ones read, for the round that brings the rest", async () => {
  const twice = {
    name: "ask:twice",
    run: async (_params: unknown, connection: Connection) => {
      const { who } = await connection.ask({ who: nameForm });
      const { summary } = await connection.ask({ summary: { sample: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 } } });
      return [who.action, summary.model];
    },
  } as unknown as ActionDefinition;
  const { dispatcher } = pipeline([twice]);
  const who: RawAnswer = { action: "accept", content: { name: "Ada" } };
  const first = await dispatcher.run("ask:twice", {}, new Connection({ type: CONNECTION_TYPE.mcp, callerInput: answering({ who }) }));
  expect(isInputRequired(first.error) && first.error.answered).toEqual({ who });
  expect(isInputRequired(first.error) && Object.keys(first.error.questions)).toEqual(["summary"]);
  const summary: RawAnswer = { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" };
  const second = await dispatcher.run("ask:twice", {}, new Connection({ type: CONNECTION_TYPE.mcp, callerInput: answering({ who, summary }) }));
  expect(second).toMatchObject({ status: 200, response: ["accept", "m"] });
});

test("canAsk says what the caller can answer, and nothing where no one can be asked", () => {
  expect(new Connection({ type: CONNECTION_TYPE.web }).canAsk("form")).toBe(false);
  const mcp = new Connection({ type: CONNECTION_TYPE.mcp, callerInput: answering({}) });
  expect([mcp.canAsk("form"), mcp.canAsk("sample"), mcp.canAsk("roots")]).toEqual([true, true, false]);
});
