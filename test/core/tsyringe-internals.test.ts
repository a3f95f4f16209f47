import { injectable, singleton } from "tsyringe";
import { forgetClasses, rootContainer } from "../../src/core/container";
import { decoratedClasses, providersOf, registrationsOf } from "../../src/core/tsyringe-internals";

/**
 * What Herald reads of tsyringe's internals, against the tsyringe installed: when a release moves
 * them, these fail, rather than `herald dev` silently keeping every reload's classes.
 */
class Clock {}

@injectable()
class Stamper {
  constructor(readonly clock: Clock) {}
}

test("typeInfo maps each decorated class to its constructor's param types", () => {
  const typeInfo = decoratedClasses();
  expect(typeInfo).toBeInstanceOf(Map);
  expect(typeInfo!.get(Stamper)).toEqual([Clock]);
});

test("a container's registrations are a Map by token", () => {
  const container = rootContainer.createChildContainer();
  container.register("a token", { useValue: 1 });
  const registrations = registrationsOf(container);
  expect(registrations).toBeInstanceOf(Map);
  expect(registrations!.has("a token")).toBe(true);
});

test("forgetClasses drops a class from both", () => {
  @singleton()
  class Reloaded {}
  expect(decoratedClasses()!.has(Reloaded)).toBe(true);
  expect(registrationsOf(rootContainer)!.has(Reloaded)).toBe(true);
  forgetClasses(new Set([Reloaded]));
  expect(decoratedClasses()!.has(Reloaded)).toBe(false);
  expect(registrationsOf(rootContainer)!.has(Reloaded)).toBe(false);
});

test("a token's providers are found in its container or the nearest parent that has it", () => {
  const parent = rootContainer.createChildContainer();
  const child = parent.createChildContainer();
  parent.register("a clock", { useClass: Clock });
  expect(providersOf(child, "a clock")).toEqual([{ useClass: Clock }]);
  child.register("a clock", { useValue: 1 });
  expect(providersOf(child, "a clock")).toEqual([{ useValue: 1 }]);
  expect(providersOf(child, "nothing")).toEqual([]);
});
