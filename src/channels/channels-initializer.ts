import { injectable } from "tsyringe";
import type { Initializer } from "../core/initializer";
import { HeraldServer } from "../core/server";
import { ChannelBroker } from "./channel-broker";
import { ChannelPresence } from "./channel-presence";
import { ChannelPublisher } from "./channel-publisher";
import { ChannelRegistry } from "./channel-registry";
import { readChannelSettings } from "./channel-settings";
import { ChannelSubscriptions } from "./channel-subscriptions";
import { InProcessPresenceStore } from "./in-process-presence-store";
import { InProcessPubSub } from "./in-process-pubsub";
import { PRESENCE_STORE_TOKEN, PresenceStore } from "./presence-store";
import { PUBSUB_DRIVER_TOKEN, PubSubDriver } from "./pubsub-driver";
import { RedisPresenceStore } from "./redis-presence-store";
import { RedisPubSub } from "./redis-pubsub";

/** No semantic convention counts a pub/sub server's subscribers. */
export const METRIC_CHANNEL_SUBSCRIPTIONS = "herald.channel.subscriptions";

/**
 * Sets up channels in every run mode (a CLI command or a task publishes too): the pub/sub
 * driver (Redis when REDIS_URL is set, else in-process, unless a test or an app registered its
 * own), the presence store, and the services built on them. The app's channel classes are
 * registered at initialize.
 */
@injectable()
export class ChannelsInitializer implements Initializer {
  readonly name = "channels";
  driver!: PubSubDriver;
  presenceStore!: PresenceStore;
  registry!: ChannelRegistry;
  publisher!: ChannelPublisher;
  presence!: ChannelPresence;
  subscriptions!: ChannelSubscriptions;
  private ownsDriver = false;
  private ownsPresenceStore = false;

  constructor(private readonly server: HeraldServer) {}

  /** Registers the driver, the presence store and the services on them, so that actions, services and other initializers can have them injected. */
  register(): void {
    const { config, container, logger } = this.server;
    const settings = readChannelSettings(config);
    this.ownsDriver = !container.isRegistered(PUBSUB_DRIVER_TOKEN, true);
    this.driver = this.ownsDriver
      ? settings.driver === "redis"
        ? new RedisPubSub({ url: settings.redisUrl!, prefix: settings.prefix, logger })
        : new InProcessPubSub()
      : container.resolve(PUBSUB_DRIVER_TOKEN);
    this.ownsPresenceStore = !container.isRegistered(PRESENCE_STORE_TOKEN, true);
    this.presenceStore = this.ownsPresenceStore
      ? this.driver instanceof RedisPubSub
        ? new RedisPresenceStore({ client: this.driver.client, prefix: this.driver.prefix, ttlMs: settings.presenceTtlMs })
        : new InProcessPresenceStore()
      : container.resolve(PRESENCE_STORE_TOKEN);
    this.registry = new ChannelRegistry(container);
    const broker = new ChannelBroker(this.driver, logger);
    this.publisher = new ChannelPublisher(this.driver, { channels: this.registry, checkMessages: config.checkOutputs });
    this.presence = new ChannelPresence(this.presenceStore, this.driver, { intervalMs: settings.presenceIntervalMs, logger });
    this.subscriptions = new ChannelSubscriptions(this.registry, broker, this.presence, { production: config.production, logger });

    container.register(PUBSUB_DRIVER_TOKEN, { useValue: this.driver });
    container.register(PRESENCE_STORE_TOKEN, { useValue: this.presenceStore });
    container.register(ChannelRegistry, { useValue: this.registry });
    container.register(ChannelBroker, { useValue: broker });
    container.register(ChannelPublisher, { useValue: this.publisher });
    container.register(ChannelPresence, { useValue: this.presence });
    container.register(ChannelSubscriptions, { useValue: this.subscriptions });
  }

  async initialize(): Promise<void> {
    for (const channel of this.server.channels) this.registry.add(channel);
    const driver = this.driver;
    // Calls are answered without channels: their driver down makes the server degraded, not down.
    this.server.health.register("channels", () => driver.ping(), { essential: false });
    try {
      await driver.connect();
    } catch (error) {
      // Not fatal: the driver keeps reconnecting; meanwhile publish and subscribe fail with 503.
      this.server.logger.warn({ err: error }, "channels: the pub/sub backend is not reachable yet");
    }
  }

  start(): void {
    this.presence.start();
    const subscriptions = this.subscriptions;
    this.server.metrics.meter
      ?.createObservableUpDownCounter(METRIC_CHANNEL_SUBSCRIPTIONS, { unit: "{subscription}", description: "Open channel subscriptions, over every transport" })
      .addCallback((result) => result.observe(subscriptions.open));
  }

  async stop(): Promise<void> {
    await this.presence.stop();
    if (this.ownsPresenceStore) await this.presenceStore.close();
    if (this.ownsDriver) await this.driver.close();
  }
}
