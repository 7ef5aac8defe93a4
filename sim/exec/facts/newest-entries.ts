/**
 * A map that keeps only the `max` entries set most recently, dropping the oldest: a cache that a
 * cluster's size cannot grow past `max`.
 */
export class NewestEntries<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    // Set anew, so it counts as the newest.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
  }
}
