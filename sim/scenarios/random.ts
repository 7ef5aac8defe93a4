/**
 * Seeded randomness for the simulator, so a scenario built twice with the same seed is the same
 * cluster. Also the id shapes Kubernetes, containerd and AWS use.
 */

/** The alphabet of Kubernetes' `rand.String` (no vowels, no look-alike digits). */
const K8S_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Hex digits drawn per refill: slicing one long string beats encoding many short ones. */
const HEX_POOL_BYTES = 4096;
const HEX_DIGITS = Buffer.from('0123456789abcdef');
const DASH = 0x2d;
/** A UUID is written here as ASCII, so it becomes one flat string, not a tree of slices. */
const uuidScratch = Buffer.alloc(36);

/** An RFC 4122 version 4 UUID from 32-bit words (`word(0)`, `word(1)`... in order). */
export function spellUuid(word: (index: number) => number): string {
  let bits = 0;
  let digits = 0;
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      uuidScratch[i] = DASH;
      continue;
    }
    if (digits % 8 === 0) bits = word(digits / 8);
    const nibble = (bits >>> ((digits++ % 8) * 4)) & 15;
    const digit = i === 14 ? 4 : i === 19 ? (nibble & 3) | 8 : nibble;
    uuidScratch[i] = HEX_DIGITS[digit] as number;
  }
  return uuidScratch.toString('latin1');
}

export class Random {
  private state: number;
  private hexPool = '';
  private hexAt = 0;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: small, fast, and good enough for plausible ids. */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1), the shape `Math.random` has. */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  /** `length` random hex digits (at most 8,192). */
  hex(length: number): string {
    if (this.hexAt + length > this.hexPool.length) {
      const bytes = Buffer.allocUnsafe(HEX_POOL_BYTES);
      for (let i = 0; i < HEX_POOL_BYTES; i += 4) bytes.writeUInt32LE(this.uint32(), i);
      this.hexPool = bytes.toString('hex');
      this.hexAt = 0;
    }
    this.hexAt += length;
    return this.hexPool.slice(this.hexAt - length, this.hexAt);
  }

  /** The suffix the ReplicaSet and DaemonSet controllers give pods (`rand.String(5)`). */
  suffix(length = 5): string {
    let out = '';
    for (let i = 0; i < length; i++) out += K8S_ALPHABET[this.int(K8S_ALPHABET.length)];
    return out;
  }

  /** An RFC 4122 version 4 UUID. */
  uuid(): string {
    return spellUuid(() => this.uint32());
  }

  /** An EC2 id such as `i-0123456789abcdef0` (`prefix-0` and 16 hex digits). */
  awsId(prefix: string): string {
    return `${prefix}-0${this.hex(16)}`;
  }
}

/** A `generateName`-style name not yet taken, as `exists` reports. */
export function uniqueName(random: Random, prefix: string, exists: (name: string) => boolean): string {
  for (;;) {
    const name = `${prefix}${random.suffix()}`;
    if (!exists(name)) return name;
  }
}
