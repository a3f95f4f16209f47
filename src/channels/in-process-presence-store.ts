import { PresenceDeparture, PresenceEntry, PresenceStore } from "./presence-store";

/** Presence in this process's memory: the default without Redis. Its members die with it. */
export class InProcessPresenceStore implements PresenceStore {
  readonly driver = "memory";
  /** channel → presence key → member ids */
  private readonly channels = new Map<string, Map<string, Set<string>>>();

  async join({ channel, presenceKey, memberId }: PresenceEntry): Promise<boolean> {
    let keys = this.channels.get(channel);
    if (!keys) this.channels.set(channel, (keys = new Map()));
    let members = keys.get(presenceKey);
    const arrived = !members;
    if (!members) keys.set(presenceKey, (members = new Set()));
    members.add(memberId);
    return arrived;
  }

  async leave({ channel, presenceKey, memberId }: PresenceEntry): Promise<boolean> {
    const keys = this.channels.get(channel);
    const members = keys?.get(presenceKey);
    if (!keys || !members?.delete(memberId) || members.size) return false;
    keys.delete(presenceKey);
    if (!keys.size) this.channels.delete(channel);
    return true;
  }

  async members(channel: string): Promise<string[]> {
    return [...(this.channels.get(channel)?.keys() ?? [])];
  }

  async refresh(): Promise<PresenceEntry[]> {
    return [];
  }

  async sweep(): Promise<PresenceDeparture[]> {
    return [];
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
