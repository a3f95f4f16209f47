import { DependencyContainer, injectable, Lifecycle } from "tsyringe";
import { rootContainer } from "./container";

type Constructor = new (...args: any[]) => unknown;

/**
 * Makes a class a service: one instance per server, built through that server's container, so
 * every action, middleware and initializer of one app shares it, while two servers in one process
 * (two test servers) each have their own. A provider the server's container registers for the
 * class (a test's override) wins, since the container finds its own registration first.
 *
 * Neither `@singleton()` nor `@scoped(Lifecycle.ContainerScoped)` does this: both register in the
 * root container when the class is declared, which is after a server has made its child
 * container, so the instance would live on the root's registration, be shared by every server,
 * and keep the dependencies of the first server that asked for it.
 */
export function Service(): ClassDecorator {
  return ((target: Constructor) => {
    injectable()(target);
    rootContainer.register(target, {
      useFactory: (requester) => {
        const owner = requester === rootContainer ? rootScope() : requester;
        // Registered in the asking container, as one instance there; the next resolution finds it directly.
        if (!owner.isRegistered(target)) owner.register(target, { useClass: target }, { lifecycle: Lifecycle.ContainerScoped });
        return owner.resolve(target);
      },
    });
  }) as ClassDecorator;
}

let rootInstances: DependencyContainer | undefined;

/**
 * Where services asked for through the root container itself live: registered on the root, they
 * would shadow the factory above for every server.
 */
function rootScope(): DependencyContainer {
  return (rootInstances ??= rootContainer.createChildContainer());
}
