import type { DependencyContainer, InjectionToken } from "tsyringe";

/**
 * What `token` stands for in `container`: the app's own registration when it made one (`owned`
 * false: the app closes it), else what `make` builds, registered under the token (`owned`: the
 * initializer that asked closes it at stop).
 */
export function providedOrMade<T>(container: DependencyContainer, token: InjectionToken<T>, make: () => T): { value: T; owned: boolean } {
  if (container.isRegistered(token, true)) return { value: container.resolve(token), owned: false };
  const value = make();
  container.register(token, { useValue: value });
  return { value, owned: true };
}
