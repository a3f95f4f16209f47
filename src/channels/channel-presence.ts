import type { Logger } from "../core/logger";
import { encodeChannelEvent } from "./channel-event";
import type { PresenceEntry, PresenceStore } from "./presence-store";
import type { PubSubDriver } from "./pubsub-driver";

const entryKey = ({ channel, presenceKey, memberId }: PresenceEntry) => `${channel}\u0000${presenceKey}\u0000${memberId}`;

/**
 * Presence on presence channels: records this process's members in the PresenceStore and
 * announces `join` when a key arrives and `leave` when its last member goes, to the channel's
 * subscribers. While started, it refreshes its members and sweeps the members other processes
 * stopped refreshing (a process that died), announcing the keys that left with them.
 */
export class ChannelPresence {
  private readonly local = new Map<string, PresenceEntry>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly store: PresenceStore,
    private readonly driver: PubSubDriver,
    private readonly options: { intervalMs: number; logger?: Logger },
  ) {}

  async join(entry: PresenceEntry): Promise<void> {
    const key = entryKey(entry);
    if (this.local.has(key)) return;
    this.local.set(key, entry);
    try {
      if (await this.store.join(entry)) await this.announce(entry.channel, "join", entry.presenceKey);
    } catch (error) {
      this.local.delete(key);
      throw error;
    }
  }

  async leave(entry: PresenceEntry): Promise<void> {
    if (!this.local.delete(entryKey(entry))) return;
    if (await this.store.leave(entry)) await this.announce(entry.channel, "leave", entry.presenceKey);
  }

  /** The presence keys present on the channel, in every process. */
  members(channel: string): Promise<string[]> {
    return this.store.members(channel);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.options.intervalMs).unref();
  }

  /** Stops refreshing and sweeping; members still here leave. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    const remaining = [...this.local.values()];
    await Promise.all(remaining.map((entry) => this.leave(entry).catch(() => undefined)));
  }

  /** One refresh of this process's members and one sweep of lapsed ones; normally run by the timer. */
  tick(): Promise<void> {
    this.ticking ??= this.refreshAndSweep().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async refreshAndSweep(): Promise<void> {
    try {
      for (const entry of await this.store.refresh([...this.local.values()])) {
        if (this.local.has(entryKey(entry))) await this.announce(entry.channel, "join", entry.presenceKey);
        // It left while the refresh was on its way, and the refresh brought it back: undo that quietly.
        else await this.store.leave(entry);
      }
      for (const departure of await this.store.sweep()) {
        await this.announce(departure.channel, "leave", departure.presenceKey);
      }
    } catch (error) {
      this.options.logger?.warn({ err: error }, "channels: presence refresh failed; retrying");
    }
  }

  private async announce(channel: string, event: "join" | "leave", presenceKey: string): Promise<void> {
    await this.driver.publish(channel, encodeChannelEvent({ messageType: "presence", channel, event, presenceKey }));
  }
}
