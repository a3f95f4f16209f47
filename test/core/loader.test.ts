import { join } from "node:path";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { ErrorType, TypedError, globLoader, rootContainer } from "herald";
import { sourceOf } from "../../src/core/loader";

const dir = join(__dirname, "../fixtures/loader");

test("loads every class exported by every file below the folder, in path order", async () => {
  const instances = await globLoader<object>(dir);
  expect(instances.map((instance) => instance.constructor.name)).toEqual(["Alpha", "Beta", "Counter"]);
});

test("resolves classes through the container, injecting constructor services", async () => {
  const container = rootContainer.createChildContainer();
  const [alpha] = await globLoader<{ counter: { value: number } }>(dir, container);
  expect(alpha!.counter.value).toBe(0);
});

test("instances are traced back to their file", async () => {
  const [alpha] = await globLoader<object>(dir);
  expect(sourceOf(alpha!)).toBe(join(dir, "alpha.ts"));
});

test("skips test files and declaration files, and a class exported twice loads once", async () => {
  const names = (await globLoader<object>(dir)).map((instance) => instance.constructor.name);
  expect(names).not.toContain("ShouldNotLoad");
  expect(names).not.toContain("AlsoNotLoaded");
  expect(names.filter((name) => name === "Beta")).toHaveLength(1);
});

test("a missing or empty folder loads nothing", async () => {
  expect(await globLoader(join(dir, "empty"))).toEqual([]);
  expect(await globLoader(join(dir, "does-not-exist"))).toEqual([]);
});

test("a class that throws in its constructor is SERVER_INITIALIZATION naming file and class", async () => {
  const broken = mkdtempSync(join(tmpdir(), "herald-loader-"));
  writeFileSync(join(broken, "boom.js"), "exports.Boom = class Boom { constructor() { throw new Error('kaboom'); } };");
  const error = (await globLoader(broken).catch((thrown) => thrown)) as TypedError;
  expect(error).toBeInstanceOf(TypedError);
  expect(error.type).toBe(ErrorType.SERVER_INITIALIZATION);
  expect(error.message).toContain("Boom");
  expect(error.message).toContain(join(broken, "boom.js"));
  expect(error.message).toContain("kaboom");
});

test("a file that fails to load is SERVER_INITIALIZATION naming the file", async () => {
  const broken = mkdtempSync(join(tmpdir(), "herald-loader-"));
  writeFileSync(join(broken, "syntax.js"), "this is not javascript");
  const error = (await globLoader(broken).catch((thrown) => thrown)) as TypedError;
  expect(error.type).toBe(ErrorType.SERVER_INITIALIZATION);
  expect(error.message).toContain(join(broken, "syntax.js"));
});

test("a compiled .js twin of a .ts file is not loaded twice", async () => {
  const twin = mkdtempSync(join(tmpdir(), "herald-loader-"));
  writeFileSync(join(twin, "one.ts"), "export class One {}");
  writeFileSync(join(twin, "one.js"), "exports.One = class One {};");
  expect(await globLoader(twin)).toHaveLength(1);
});
