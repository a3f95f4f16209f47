import { delay, inject, injectable, injectAll } from "tsyringe";
import { rootContainer } from "../../src/core/container";
import { buildsAnyOf } from "../../src/core/dependency-reach";

/** What building a class builds, read from tsyringe's records, without building anything. */
class Queue {}
const QUEUE_PORT = Symbol("queue port");

@injectable()
class Mailer {
  constructor(readonly queue: Queue) {}
}

@injectable()
class Signups {
  constructor(readonly mailer: Mailer) {}
}

@injectable()
class Clock {}

@injectable()
class Reports {
  constructor(readonly clock: Clock) {}
}

@injectable()
class ByPort {
  constructor(@inject(QUEUE_PORT) readonly queue: unknown) {}
}

@injectable()
class ByAll {
  constructor(@injectAll("mailers") readonly mailers: unknown[]) {}
}

@injectable()
class Delayed {
  constructor(@inject(delay(() => Queue)) readonly queue: Queue) {}
}

/** Two classes that take each other, by a token: the walk ends. */
@injectable()
class Ping {
  constructor(@inject("pong") readonly pong: unknown) {}
}

const targets = new Set<unknown>([Queue]);

test("a class that takes the target, directly or through what it takes, builds it; one that does not, does not", () => {
  const container = rootContainer.createChildContainer();
  expect(buildsAnyOf(container, Mailer, targets)).toBe(true);
  expect(buildsAnyOf(container, Signups, targets)).toBe(true);
  expect(buildsAnyOf(container, Reports, targets)).toBe(false);
  expect(buildsAnyOf(container, Queue, targets)).toBe(true);
});

test("a token is followed to what its registration builds: a class, another token; a value or a factory is not seen into", () => {
  const container = rootContainer.createChildContainer();
  expect(buildsAnyOf(container, ByPort, targets)).toBe(false);
  container.register(QUEUE_PORT, { useClass: Mailer });
  expect(buildsAnyOf(container, ByPort, targets)).toBe(true);

  const byToken = rootContainer.createChildContainer();
  byToken.register(QUEUE_PORT, { useToken: Signups });
  expect(buildsAnyOf(byToken, ByPort, targets)).toBe(true);

  const byValue = rootContainer.createChildContainer();
  byValue.register(QUEUE_PORT, { useValue: new Queue() });
  expect(buildsAnyOf(byValue, ByPort, targets)).toBe(false);
  const byFactory = rootContainer.createChildContainer();
  byFactory.register(QUEUE_PORT, { useFactory: () => new Queue() });
  expect(buildsAnyOf(byFactory, ByPort, targets)).toBe(false);
});

test("injectAll follows every registration of its token; a delay() is not seen into", () => {
  const container = rootContainer.createChildContainer();
  container.register("mailers", { useClass: Reports });
  expect(buildsAnyOf(container, ByAll, targets)).toBe(false);
  container.register("mailers", { useClass: Mailer });
  expect(buildsAnyOf(container, ByAll, targets)).toBe(true);
  expect(buildsAnyOf(container, Delayed, targets)).toBe(false);
});

test("a cycle of tokens ends the walk", () => {
  const container = rootContainer.createChildContainer();
  container.register("pong", { useToken: "ping" });
  container.register("ping", { useClass: Ping });
  expect(buildsAnyOf(container, Ping, targets)).toBe(false);
});
