/**
 * A size-bounded map that forgets the least recently used entry first. Every per-isolate
 * cache goes through it: an isolate lives for many requests, and a cache keyed by anything
 * a caller chooses (profile URLs, API keys, ids) otherwise grows with every new key.
 * A Map keeps insertion order, so re-inserting on use makes the first key the oldest.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, V>();
  readonly maxEntries: number;

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError("Lru maxEntries must be a positive integer");
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** The value without counting as a use. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Stores as most recently used; evicts the least recently used past the bound. Returns `value`. */
  set(key: K, value: V): V {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    return value;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Oldest first. Deleting the current entry while iterating is safe (Map semantics). */
  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries();
  }
}
