/**
 * A short-lived cache for public reads that every visitor makes the same way (feed pages, the
 * sidebar's creators). Entries live for ttlMs; concurrent misses for one key share a single
 * load, so a burst of visitors costs one query. A write clears a namespace at once here and,
 * through `publish` (the database's notifications: see CACHE_CHANNEL), in every other process
 * behind the same database, which calls forget() when it hears of it.
 */
export class ReadCache {
  readonly #entries = new Map<string, { expires: number; value: Promise<unknown> }>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 1000,
    private readonly now: () => number = Date.now,
    /** Tells the other processes a namespace changed. */
    private readonly publish: (namespace: string) => void = () => {},
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  async get<T>(namespace: string, key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const id = `${namespace}\u0000${key}`;
    const hit = this.#entries.get(id);
    if (hit && hit.expires > this.now()) return hit.value as Promise<T>;
    const value = load();
    this.#entries.delete(id);
    this.#entries.set(id, { expires: this.now() + this.ttlMs, value });
    // A failed load is not remembered.
    value.catch(() => {
      if (this.#entries.get(id)?.value === value) this.#entries.delete(id);
    });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return value;
  }

  /** After a write that changes what a namespace holds: forgets it here and in every other process. */
  invalidate(namespace: string): void {
    this.forget(namespace);
    this.publish(namespace);
  }

  /** Forgets every entry of a namespace in this process; null forgets everything. */
  forget(namespace: string | null): void {
    if (namespace === null) {
      this.#entries.clear();
      return;
    }
    const prefix = `${namespace}\u0000`;
    for (const id of this.#entries.keys()) if (id.startsWith(prefix)) this.#entries.delete(id);
  }
}

export const CACHE_NAMESPACES = { feed: 'feed', creators: 'creators' } as const;

/** The notifications channel on which a process says which namespace it invalidated. */
export const CACHE_CHANNEL = 'framemerch_read_cache';
