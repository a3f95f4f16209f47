import "reflect-metadata";
import {
  container as rootContainer,
  DependencyContainer,
  InjectionToken,
  instancePerContainerCachingFactory,
  Lifecycle,
} from "tsyringe";
import { decoratedClasses, registrationsOf } from "./tsyringe-internals";

export { rootContainer };
export type { DependencyContainer, InjectionToken };

/**
 * Forgets classes whose modules `herald dev` dropped to reload them: tsyringe keeps each
 * decorated class (its constructor's param types) in a map of its own, and each service's
 * registration in the root container, for the life of the process, so without this every
 * reload's classes, and the modules they close over, would stay in memory. Those maps are
 * tsyringe's internals: where a version keeps them elsewhere, nothing is forgotten.
 */
export function forgetClasses(classes: ReadonlySet<unknown>): void {
  const typeInfo = decoratedClasses();
  const registrations = registrationsOf(rootContainer);
  for (const type of classes) {
    typeInfo?.delete(type);
    registrations?.delete(type);
  }
}

/** A provider that replaces a service in one server's container, before that server boots. */
export type ProviderOverride<T = any> =
  | { token: InjectionToken<T>; useValue: T }
  | { token: InjectionToken<T>; useClass: new (...args: any[]) => T }
  | { token: InjectionToken<T>; useFactory: (container: DependencyContainer) => T };

/**
 * An override stands for one instance in its server, like the singleton service it usually
 * replaces: a test that reaches the fake through the container sees the one the app uses.
 */
export function applyOverrides(target: DependencyContainer, overrides: readonly ProviderOverride[]): void {
  for (const override of overrides) {
    if ("useValue" in override) target.register(override.token, { useValue: override.useValue });
    else if ("useClass" in override) {
      target.register(override.token, { useClass: override.useClass }, { lifecycle: Lifecycle.ContainerScoped });
    } else target.register(override.token, { useFactory: instancePerContainerCachingFactory(override.useFactory) });
  }
}
