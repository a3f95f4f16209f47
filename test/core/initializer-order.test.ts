import { APP_INITIALIZERS, orderInitializers, type Initializer } from "../../src/core/initializer";

const named = (name: string, rest: Partial<Initializer> = {}): Initializer => ({ name, ...rest });
const names = (initializers: Initializer[]) => initializers.map((initializer) => initializer.name);

/** Herald's own, as they are shaped: some provide, some wait for the app. */
const builtins = () => [
  named("store"),
  named("pages", { dependsOn: ["store"] }),
  named("web", { dependsOn: [APP_INITIALIZERS, "pages"] }),
  named("sockets", { dependsOn: ["web"] }),
  named("socket-file", { dependsOn: [APP_INITIALIZERS] }),
];

test("Herald's initializers go by dependsOn alone, in the order given where it does not decide; their priority is not read", () => {
  const ordered = orderInitializers([
    named("b", { dependsOn: ["c"], priority: 1 }),
    named("a", { priority: 9000 }),
    named("c"),
  ]);
  expect(names(ordered)).toEqual(["a", "c", "b"]);
});

test("the app's initializers go after Herald's that provide and before those that wait for the app, which a dependency on one of those also makes wait", () => {
  const ordered = orderInitializers(builtins(), [named("mailer"), named("cache")]);
  expect(names(ordered)).toEqual(["store", "pages", "cache", "mailer", "web", "sockets", "socket-file"]);
});

test("among the app's initializers, the lowest priority then the name; priority moves none past Herald's", () => {
  const app = [named("late", { priority: 10_000 }), named("early", { priority: 1 }), named("b"), named("a")];
  expect(names(orderInitializers(builtins(), app))).toEqual(["store", "pages", "early", "a", "b", "late", "web", "sockets", "socket-file"]);
});

test("an app initializer that names one of Herald's waiting initializers goes right after it, and what depends on it after that", () => {
  const app = [named("after-web", { dependsOn: ["web"] }), named("after-that", { dependsOn: ["after-web"], priority: 1 }), named("plain")];
  expect(names(orderInitializers(builtins(), app))).toEqual(["store", "pages", "plain", "web", "after-web", "after-that", "sockets", "socket-file"]);
});

test("dependsOn comes before priority among the app's initializers", () => {
  const app = [named("cache", { priority: 1, dependsOn: ["database"] }), named("database", { priority: 100 })];
  expect(names(orderInitializers([], app))).toEqual(["database", "cache"]);
});

test("one of Herald's initializers may wait for a named app initializer", () => {
  const ordered = orderInitializers([named("first"), named("checker", { dependsOn: ["cache"] })], [named("cache"), named("mailer")]);
  expect(names(ordered)).toEqual(["first", "cache", "checker", "mailer"]);
});

test("refused: a cycle, a dependency not loaded, two of one name, the name that stands for the app's initializers", () => {
  expect(() => orderInitializers([named("a", { dependsOn: ["b"] }), named("b", { dependsOn: ["a"] })])).toThrow("Initializers depend on each other in a cycle: a, b");
  expect(() => orderInitializers([], [named("a", { dependsOn: ["nowhere"] })])).toThrow('Initializer "a" depends on "nowhere", which is not loaded in this run mode');
  expect(() => orderInitializers([named("a")], [named("a")])).toThrow('Two initializers are named "a"');
  expect(() => orderInitializers([], [named(APP_INITIALIZERS)])).toThrow("No initializer may be named");
});
