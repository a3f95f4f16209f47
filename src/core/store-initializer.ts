import type { InjectionToken } from "tsyringe";
import { RUN_MODE } from "./constants";
import type { Initializer } from "./initializer";
import { providedOrMade } from "./provided-or-made";
import type { HeraldServer } from "./server";

/**
 * An initializer that provides one store under its token in every run mode: the app's own
 * registration when it made one, else the store `make` builds (Redis or in process), registered
 * before anything that takes it is built. It closes only a store it made.
 */
export abstract class StoreInitializer<Store extends { close(): Promise<void> }> implements Initializer {
  abstract readonly name: string;
  readonly runModes = Object.values(RUN_MODE);
  store!: Store;
  private ownsStore = false;

  protected constructor(
    protected readonly server: HeraldServer,
    private readonly token: InjectionToken<Store>,
  ) {}

  /** The store to make when the app registered none. */
  protected abstract make(): Store;

  register(): void {
    const { value, owned } = providedOrMade(this.server.container, this.token, () => this.make());
    this.store = value;
    this.ownsStore = owned;
  }

  async stop(): Promise<void> {
    if (this.ownsStore) await this.store.close();
  }
}
