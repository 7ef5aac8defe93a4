/** What a scan keeps of each key: `has` and how many were added. */
export interface KeyLookup {
  has(key: string): boolean;
  readonly size: number;
}

const EMPTY = 0;
const INITIAL_SLOTS = 1 << 12;
/**
 * Grown past this share of its slots. Probes run through adjacent slots, so even a full table's
 * few dozen are cheaper than hashing the key; and 3.3 million keys (a 100,000-node cluster's pods)
 * fit 4,194,304 slots, where at three-quarters they would double to 64 MiB, and for a moment hold
 * the old array beside the new.
 */
const MAX_LOAD = 0.875;

let high = 0;
let low = 0;

/** Two 32-bit lanes over the key's UTF-16 units (cyrb53's mixing, both lanes kept): `high`, `low`. */
function hash(key: string): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  high = h2 >>> 0;
  // 0/0 marks an empty slot.
  low = h1 >>> 0 || (high === EMPTY ? 1 : 0);
}

/**
 * A set of strings kept as 64-bit hashes in one typed array (open addressing, linear probing):
 * 9 to 18 bytes a key instead of a string and a Set entry (about 100), so a scan of 3 million
 * pods holds tens of MiB, not hundreds. Two keys share a hash with odds of about n / 2^64 a
 * lookup (1 in 6 trillion at 3 million keys); a pod whose key did would look as if it had an
 * endpoint and be left alone, never restarted in error.
 */
export class KeySet implements KeyLookup {
  #slots = new Uint32Array(2 * INITIAL_SLOTS);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The memory the hashes take. */
  get bytes(): number {
    return this.#slots.byteLength;
  }

  add(key: string): void {
    hash(key);
    if (this.#insert(high, low)) this.#size++;
    if (this.#size > (this.#slots.length / 2) * MAX_LOAD) this.#grow();
  }

  has(key: string): boolean {
    hash(key);
    const slots = this.#slots;
    const mask = slots.length / 2 - 1;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      const h = slots[2 * slot] as number;
      const l = slots[2 * slot + 1] as number;
      if (h === high && l === low) return true;
      if (h === EMPTY && l === EMPTY) return false;
    }
  }

  /** Whether the hash was new. */
  #insert(h: number, l: number): boolean {
    const slots = this.#slots;
    const mask = slots.length / 2 - 1;
    for (let slot = l & mask; ; slot = (slot + 1) & mask) {
      const sh = slots[2 * slot] as number;
      const sl = slots[2 * slot + 1] as number;
      if (sh === h && sl === l) return false;
      if (sh === EMPTY && sl === EMPTY) {
        slots[2 * slot] = h;
        slots[2 * slot + 1] = l;
        return true;
      }
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) {
      const h = old[i] as number;
      const l = old[i + 1] as number;
      if (h !== EMPTY || l !== EMPTY) this.#insert(h, l);
    }
  }
}
