import type { ChannelBroker } from "../../channels/channel-broker";
import { decodeChannelEvent } from "../../channels/channel-event";
import type { ChannelSubscriptions } from "../../channels/channel-subscriptions";
import type { Connection } from "../../core/connection";
import type { Logger } from "../../core/logger";
import type { McpCatalog } from "./catalog";

/** The channels of the app, once the channels initializer has set them up. */
export interface AppChannels {
  subscriptions: ChannelSubscriptions;
  broker: ChannelBroker;
}

interface ChannelWatch {
  /** The listened resource URIs this channel changes, with how many listen streams want each. */
  uris: Map<string, number>;
  stop: Promise<() => Promise<void>>;
}

function fill(channelTemplate: string, params: Record<string, unknown>): string {
  return channelTemplate.replace(/\{(\w+)\}/g, (_whole, name: string) => String(params[name] ?? ""));
}

/**
 * Resources that a channel's messages change (`mcp.resource.channel`), for the clients listening
 * on them (`subscriptions/listen`): each listen stream is subscribed to the channel as a
 * connection of its own, under the channel's middleware and `authorize`, for as long as it stays
 * open; each message published on the channel, from any process, becomes one
 * `notifications/resources/updated` for the resource, which the SDK sends on every stream that
 * asked for that URI.
 */
export class ResourceListens {
  private readonly watches = new Map<string, ChannelWatch>();

  constructor(
    private readonly catalog: McpCatalog,
    private readonly channels: () => AppChannels | undefined,
    private readonly resourceUpdated: (uri: string) => void,
    private readonly logger: Logger,
  ) {}

  /**
   * Subscribes a listen stream to the channels behind the URIs it asks for; resolves with the
   * function that ends it all, and rejects with the channel's refusal (the subscriptions made
   * so far ended) when one refuses.
   */
  async open(uris: readonly string[], connection: Connection): Promise<() => Promise<void>> {
    const ends: (() => Promise<void>)[] = [];
    const endAll = async () => {
      for (const end of ends.splice(0).reverse()) await end();
    };
    try {
      for (const uri of new Set(uris)) {
        const match = this.catalog.matchResource(uri);
        const channels = this.channels();
        if (!match?.entry.channel || !channels) continue;
        const channel = fill(match.entry.channel, match.params);
        const subscription = await channels.subscriptions.subscribe(channel, connection, () => undefined);
        ends.push(() => subscription.close());
        ends.push(this.watch(channels.broker, channel, uri, connection.requestId));
      }
    } catch (refusal) {
      await endAll();
      throw refusal;
    }
    return endAll;
  }

  /** One broker listener per channel in this process, however many streams listen on it. */
  private watch(broker: ChannelBroker, channel: string, uri: string, requestId: string | undefined): () => Promise<void> {
    const watch = this.watches.get(channel) ?? this.startWatching(broker, channel, requestId);
    const { uris } = watch;
    uris.set(uri, (uris.get(uri) ?? 0) + 1);
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      const left = uris.get(uri)! - 1;
      if (left > 0) uris.set(uri, left);
      else uris.delete(uri);
      if (uris.size === 0 && this.watches.get(channel) === watch) {
        this.watches.delete(channel);
        await (await watch.stop.catch(() => async () => undefined))();
      }
    };
  }

  /** `requestId`: the listen request that started the watch, which its failure is logged with. */
  private startWatching(broker: ChannelBroker, channel: string, requestId: string | undefined): ChannelWatch {
    const uris = new Map<string, number>();
    const stop = broker.subscribe(channel, (eventText) => {
      if (decodeChannelEvent(eventText)?.messageType !== "message") return;
      for (const listened of uris.keys()) this.resourceUpdated(listened);
    });
    stop.catch((error: unknown) => this.logger.warn({ err: error, channel, requestId }, "mcp: could not watch a channel for resource updates"));
    const watch = { uris, stop };
    this.watches.set(channel, watch);
    return watch;
  }
}
