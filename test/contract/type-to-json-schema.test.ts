import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RegisteredAction } from "herald";
import { deriveResponseSchemas } from "../../src/contract/derived-responses";
import { makeScratchDir, removeScratchDir } from "../support/scratch-apps";

/**
 * The walker from a return type to the JSON Schema of what a client receives, through the
 * compiler as `herald build` runs it: one file of classes, each `run` returning one shape.
 */

const SOURCE = `
interface Tree { name: string; children: Tree[] }
enum Color { Red = "red", Green = "green" }
class Point {
  constructor(public x: number, public y: number) {}
  get length(): number { return Math.hypot(this.x, this.y); }
  scale(by: number): Point { return new Point(this.x * by, this.y * by); }
}

export class Tuples { async run(): Promise<readonly [string, number?]> { return ["a"]; } }
export class Records { async run(): Promise<Record<string, number | undefined>> { return {}; } }
export class Bytes { async run() { return Buffer.from("hi"); } }
export class Recursive { async run(): Promise<Tree> { return { name: "root", children: [] }; } }
export class Big { async run() { return 1n; } }
export class Instances { async run() { return new Point(1, 2); } }
export class Members { async run() { return { ok: true, flag: Math.random() > 1, color: Color.Red as Color, done: () => 1, when: undefined as Date | undefined }; } }
export class Merged { async run(): Promise<{ a: string } & { b: number }> { return { a: "", b: 1 }; } }
export class Partly { async run(): Promise<{ id: number; extra: any }> { return { id: 1, extra: 1 }; } }
export class Generic { async run<T>(value?: T): Promise<T | undefined> { return value; } }
export class Never { async run(): Promise<never> { throw new Error("no"); } }
`;

let scratch: string;
let file: string;
beforeAll(() => {
  scratch = makeScratchDir();
  file = join(scratch, "shapes.ts");
  writeFileSync(file, SOURCE);
});
afterAll(() => removeScratchDir(scratch));

function registered(className: string): RegisteredAction {
  const name = `shapes:${className.toLowerCase()}`;
  // An instance whose class has the name of the one in the file, as the loader would build it.
  const type = { [className]: class {} }[className]!;
  const action = Object.assign(new type(), { name, run: async () => undefined }) as unknown as RegisteredAction["action"];
  return { action, name, source: file, middleware: [] };
}

const classes = ["Tuples", "Records", "Bytes", "Recursive", "Big", "Instances", "Members", "Merged", "Partly", "Generic", "Never"];
let derived: ReturnType<typeof deriveResponseSchemas>;
beforeAll(() => {
  derived = deriveResponseSchemas(scratch, classes.map(registered));
}, 60_000);

test("a tuple is prefixItems, with its optional elements past minItems", () => {
  // An optional element given as undefined is sent as null, as in any array.
  expect(derived.responses["shapes:tuples"]).toEqual({
    type: "array",
    prefixItems: [{ type: "string" }, { anyOf: expect.arrayContaining([{ type: "null" }, { type: "number" }]) }],
    items: false,
    minItems: 1,
    maxItems: 2,
  });
});

test("a string index signature is additionalProperties", () => {
  expect(derived.responses["shapes:records"]).toEqual({ type: "object", properties: {}, additionalProperties: { type: "number" } });
});

test("bytes are base64 text", () => {
  expect(derived.responses["shapes:bytes"]).toEqual({ type: "string", contentEncoding: "base64" });
});

test("a class instance is its data: getters stay, methods go", () => {
  expect(derived.responses["shapes:instances"]).toEqual({
    type: "object",
    properties: { x: { type: "number" }, y: { type: "number" }, length: { type: "number" } },
    required: ["x", "y", "length"],
  });
});

test("booleans, enums, function members and optional Dates", () => {
  expect(derived.responses["shapes:members"]).toEqual({
    type: "object",
    properties: {
      ok: { type: "boolean" },
      flag: { type: "boolean" },
      color: { enum: expect.arrayContaining(["red", "green"]) },
      when: { type: "string", format: "date-time" },
    },
    required: ["ok", "flag", "color"],
  });
});

test("an intersection of object types is one object", () => {
  expect(derived.responses["shapes:merged"]).toEqual({
    type: "object",
    properties: { a: { type: "string" }, b: { type: "number" } },
    required: ["a", "b"],
  });
});

test("an inexpressible part is {} and warned about; the rest is kept", () => {
  expect(derived.responses["shapes:partly"]).toEqual({ type: "object", properties: { id: { type: "number" }, extra: {} }, required: ["id", "extra"] });
  expect(derived.warnings).toContainEqual(expect.stringMatching(/^shapes:partly: any .*that part of its 200 response is \{\}$/));
});

test("recursion, bigint and type parameters are left {} with a warning naming the action", () => {
  expect(derived.responses["shapes:recursive"]).toMatchObject({ type: "object", properties: { name: { type: "string" } } });
  expect(derived.responses["shapes:big"]).toBeUndefined();
  expect(derived.responses["shapes:generic"]).toBeUndefined();
  for (const action of ["shapes:recursive", "shapes:big", "shapes:generic"]) {
    expect(derived.warnings.some((warning) => warning.startsWith(`${action}: `))).toBe(true);
  }
});

test("a run that never returns answers nothing", () => {
  expect(derived.responses["shapes:never"]).toEqual({ not: {} });
});

test("the sources are the program's own files, relative to the app root", () => {
  expect(Object.keys(derived.sources)).toEqual(["shapes.ts"]);
});
