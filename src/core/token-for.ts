import type { InjectionToken } from "tsyringe";

/**
 * An abstract class as a container token, under which its implementation is registered and by
 * which it is injected. tsyringe keys registrations by the class itself, but its types take only
 * classes it could construct; an abstract one is never constructed, only looked up.
 */
export function tokenFor<T>(type: abstract new (...args: any[]) => T): InjectionToken<T> {
  return type as unknown as InjectionToken<T>;
}
