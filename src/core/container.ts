import "reflect-metadata";
import {
  container as rootContainer,
  DependencyContainer,
  InjectionToken,
  instancePerContainerCachingFactory,
  Lifecycle,
} from "tsyringe";

export { rootContainer };
export type { DependencyContainer, InjectionToken };

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
