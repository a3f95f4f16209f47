import { ErrorType, TypedError } from "../../core/errors";
import type { RegisteredAction } from "../../core/registry";
import { routeParams } from "../../core/ports/route-params";
import { declaredKeys } from "../../schema/declared-keys";

/**
 * Fails the boot when an action's route has a param its inputs would drop (or refuse): the
 * value would never reach `run`, silently. An action without inputs takes every param as it
 * comes, and inputs that keep any key are not checked.
 */
export function checkRouteParamsDeclared(entry: RegisteredAction, route: string | RegExp): void {
  const { inputs } = entry.action;
  if (!inputs) return;
  const keys = declaredKeys(inputs);
  if (!keys) return;
  const missing = routeParams(route).map((param) => param.name).filter((name) => !keys.has(name));
  if (missing.length === 0) return;
  const list = missing.map((name) => `"${name}"`).join(", ");
  throw new TypedError({
    message:
      `The web route ${String(route)} of "${entry.name}" has the path param${missing.length > 1 ? "s" : ""} ${list}, ` +
      `which its inputs do not declare, so ${missing.length > 1 ? "they" : "it"} would never reach run: ` +
      `add ${missing.map((name) => `${name}: z.string()`).join(", ")} (or the type it holds) to its inputs`,
    type: ErrorType.SERVER_INITIALIZATION,
    key: "web",
    value: String(route),
  });
}
