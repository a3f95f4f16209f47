import { DEFAULT_PARAMS_BOUNDS } from "../../../src/core/params-bounds";
import { mergeParams } from "../../../src/transports/http/params";

describe("mergeParams", () => {
  test("one source with keys is copied, never handed on, and loses its prototype keys", () => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { message: "hi", ["__proto__"]: "x", nested: { constructor: 1, kept: 2 } });
    const params = mergeParams(DEFAULT_PARAMS_BOUNDS, {}, query, undefined, undefined);
    expect(params).toEqual({ message: "hi", nested: { kept: 2 } });
    expect(params).not.toBe(query);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    params.message = "changed";
    expect(query.message).toBe("hi");
  });

  test("a later source wins, whichever sources are empty", () => {
    expect(mergeParams(DEFAULT_PARAMS_BOUNDS, { id: "1" }, {}, { id: "2", name: "ada" }, undefined)).toEqual({ id: "2", name: "ada" });
    expect(mergeParams(DEFAULT_PARAMS_BOUNDS, {}, {}, undefined, undefined)).toEqual({});
  });

  test("a lone source that is no ordinary object is merged like any other: its own keys copied", () => {
    class Fields {
      name = "ada";
    }
    const params = mergeParams(DEFAULT_PARAMS_BOUNDS, {}, undefined, new Fields(), undefined);
    expect(params).toEqual({ name: "ada" });
    expect(params).not.toBeInstanceOf(Fields);
  });

  test("the bounds hold for a lone source", () => {
    const wide = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`k${index}`, index]));
    expect(() => mergeParams({ maxKeys: 10, maxValues: 100 }, wide)).toThrow(/at most 10 keys/);
  });
});
