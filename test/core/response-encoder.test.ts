import type { Action } from "herald";
import { ErrorType } from "../../src/core/errors";
import { encodeResponse } from "../../src/core/response-encoder";
import { isStreamingAction } from "../../src/core/streaming";

const failureOf = (value: unknown): string => {
  try {
    encodeResponse("thing:view", value);
  } catch (error) {
    expect(error).toMatchObject({ type: ErrorType.CONNECTION_SERVER_ERROR });
    return (error as Error).message.replace('The response of "thing:view" cannot be encoded as JSON: ', "");
  }
  throw new Error("encoded");
};

describe("encodeResponse", () => {
  test("plain values are JSON as JSON.stringify gives it; undefined is null", () => {
    expect(encodeResponse("thing:view", { a: 1, b: "x", c: [true, null], d: undefined })).toBe('{"a":1,"b":"x","c":[true,null]}');
    expect(encodeResponse("thing:view", undefined)).toBe("null");
    expect(encodeResponse("thing:view", [undefined])).toBe("[null]");
    expect(encodeResponse("thing:view", "text")).toBe('"text"');
  });

  test("toJSON, bytes, Map, Set and other iterables", () => {
    class Entity {
      id = 1;
      at = new Date(0);
    }
    const value = {
      entity: new Entity(),
      buffer: Buffer.from("hi"),
      bytes: new Uint8Array([1, 2]),
      raw: new Uint8Array([3]).buffer,
      map: new Map<string | number, number>([["a", 1], [2, 2]]),
      set: new Set(["x"]),
      generated: (function* () {
        yield 1;
      })(),
    };
    expect(JSON.parse(encodeResponse("thing:view", value))).toEqual({
      entity: { id: 1, at: "1970-01-01T00:00:00.000Z" },
      buffer: "aGk=",
      bytes: "AQI=",
      raw: "Aw==",
      map: { a: 1, 2: 2 },
      set: ["x"],
      generated: [1],
    });
  });

  test("what JSON cannot carry fails with the path of the value", () => {
    expect(failureOf({ list: [{ n: 1n }] })).toBe("response.list[0].n is a BigInt: convert it with String() or Number()");
    const cyclic: Record<string, unknown> = { "odd key": {} };
    (cyclic["odd key"] as Record<string, unknown>).back = cyclic;
    expect(failureOf(cyclic)).toBe('response["odd key"].back is response again, a cycle');
    const map = new Map<string, unknown>();
    map.set("self", map);
    expect(failureOf({ map })).toBe("response.map.self is response.map again, a cycle");
    expect(failureOf({ user: Promise.resolve(1) })).toBe("response.user is a Promise: await it before returning");
    expect(failureOf(new Map([[{}, 1]]))).toBe("response is a Map with a key that is not a string or a number");
    expect(failureOf({ page: new Response("x") })).toBe("response.page is an HTTP Response, which only the HTTP transport can send");
  });
});

/** `tsc --noEmit` checks that an `async *run` satisfies the Action interface. */
class Feed implements Action {
  name = "feed:watch";
  async *run() {
    yield { item: 1 };
  }
}

describe("isStreamingAction", () => {
  test("an async *run, or web.streaming", () => {
    expect(isStreamingAction(new Feed())).toBe(true);
    expect(isStreamingAction({ name: "a:b", async *run() {} })).toBe(true);
    expect(isStreamingAction({ name: "a:b", web: { route: "/", method: "GET", streaming: true }, async run() {} })).toBe(true);
    expect(isStreamingAction({ name: "a:b", async run() {} })).toBe(false);
  });
});
