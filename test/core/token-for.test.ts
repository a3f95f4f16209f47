import { injectable } from "tsyringe";
import { rootContainer } from "../../src/core/container";
import { tokenFor } from "../../src/core/token-for";

abstract class Clock {
  abstract now(): number;
}

class FixedClock extends Clock {
  now() {
    return 42;
  }
}

@injectable()
class Stamper {
  constructor(readonly clock: Clock) {}
}

test("an abstract class's token is the class itself: what is registered under it is what a constructor taking the class gets", () => {
  const token = tokenFor(Clock);
  expect(token).toBe(Clock);
  const container = rootContainer.createChildContainer();
  const clock = new FixedClock();
  container.register(token, { useValue: clock });
  // Typed as the abstract class, with no cast where it is resolved.
  const resolved: Clock = container.resolve(token);
  expect(resolved).toBe(clock);
  expect(container.resolve(Stamper).clock).toBe(clock);
});
