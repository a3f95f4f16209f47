/** Listeners by key (an event's name, a channel's), called in the order they were added. */
export class Listeners<E extends { [K in keyof E]: (...args: any[]) => void }> {
  private readonly byKey = new Map<keyof E, Set<E[keyof E]>>();

  add<K extends keyof E>(key: K, listener: E[K]): void {
    const set = this.byKey.get(key) ?? new Set();
    set.add(listener);
    this.byKey.set(key, set);
  }

  /** Adds `listener` and gives the function that removes it. */
  listen<K extends keyof E>(key: K, listener: E[K]): () => void {
    this.add(key, listener);
    return () => void this.remove(key, listener);
  }

  /** Removes `listener`; true when it was the last one of `key`. */
  remove<K extends keyof E>(key: K, listener: E[K]): boolean {
    const set = this.byKey.get(key);
    if (!set?.delete(listener)) return false;
    if (set.size > 0) return false;
    this.byKey.delete(key);
    return true;
  }

  /** Removes every listener of `key`. */
  clear(key: keyof E): void {
    this.byKey.delete(key);
  }

  /** The keys with a listener. */
  keys(): (keyof E)[] {
    return [...this.byKey.keys()];
  }

  emit<K extends keyof E>(key: K, ...args: Parameters<E[K]>): void {
    for (const listener of [...(this.byKey.get(key) ?? [])]) {
      try {
        listener(...args);
      } catch (error) {
        // A listener's bug is its own: the other listeners and the socket go on, and the error
        // is still reported as uncaught rather than swallowed.
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
}
