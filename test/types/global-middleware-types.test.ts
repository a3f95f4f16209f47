/**
 * A global middleware says so on its class: `tsc --noEmit` (run by `npm test` before Jest) fails
 * when a line below stops compiling, and an unused `@ts-expect-error` fails it when the instance
 * form stops being refused.
 */
import type { ActionMiddleware, GlobalMiddleware, GlobalMiddlewareClass } from "herald";

class CountCalls implements GlobalMiddleware {
  static readonly global = true;
  static readonly priority = 10;
  calls = 0;
  async runBefore() {
    this.calls += 1;
  }
}

class Unordered implements GlobalMiddleware {
  static readonly global = true;
}

class InstanceForm implements ActionMiddleware {
  readonly global = true;
  async runBefore() {}
}

class InstancePriority implements GlobalMiddleware {
  // @ts-expect-error a global middleware's priority is on the class, not on its instances
  readonly priority = 10;
}

class InstanceGlobal implements GlobalMiddleware {
  // @ts-expect-error a global middleware says so on the class, not on its instances
  readonly global = true;
}

const counted: GlobalMiddlewareClass = CountCalls;
const unordered: GlobalMiddlewareClass<Unordered> = Unordered;
// @ts-expect-error a class without `static global = true` is not a global middleware class
const notGlobal: GlobalMiddlewareClass = InstanceForm;
// @ts-expect-error `global` is `true`, not any boolean
const maybeGlobal: GlobalMiddlewareClass = class { static global: boolean = true };
// @ts-expect-error priority is a number
const wordPriority: GlobalMiddlewareClass = class { static readonly global = true; static readonly priority = "first" };

test("the static form is read on the class; its instances are plain middleware", async () => {
  expect([counted.global, counted.priority, unordered.global, unordered.priority]).toEqual([true, 10, true, undefined]);
  const instance = new counted() as CountCalls;
  await instance.runBefore();
  expect(instance.calls).toBe(1);
  expect("global" in instance).toBe(false);
});

test("the refused forms are still classes: the refusal is the compiler's", () => {
  expect([notGlobal, maybeGlobal, wordPriority].map((type) => typeof type)).toEqual(["function", "function", "function"]);
  expect([new InstancePriority().priority, new InstanceGlobal().global]).toEqual([10, true]);
});
