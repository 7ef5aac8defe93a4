import { type Random, spellUuid } from './random.ts';

/**
 * A generated object's random ids, kept as a 62-bit seed and spelled out when the object is read:
 * a 3-million-pod cluster then holds two small integers per object instead of a uid and 64-digit
 * container ids (about 200 bytes a pod). The halves are 31 bits so V8 keeps them unboxed.
 */
export interface IdSeed {
  readonly seedHi: number;
  readonly seedLo: number;
}

/** What an id is for, so one seed spells different ids for each. */
export const ID_SALT = { uid: 1, container: 2, sandbox: 3 } as const;

export function drawSeed(random: Random): IdSeed {
  return { seedHi: random.uint32() >>> 1, seedLo: random.uint32() >>> 1 };
}

/** murmur3's finalizer: a bijection on 32 bits that spreads every input bit. */
function mix(value: number): number {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function word(seed: IdSeed, salt: number, index: number): number {
  return mix(
    seed.seedHi ^ mix((seed.seedLo + Math.imul(salt, 0x9e3779b9) + Math.imul(index, 0x27d4eb2f)) | 0),
  );
}

const HEX_DIGITS = Buffer.from('0123456789abcdef');
const scratch = Buffer.alloc(64);

/** `length` (at most 64) hex digits; `index` tells apart several ids of one kind (a pod's containers). */
export function seededHex(seed: IdSeed, salt: number, length: number, index = 0): string {
  for (let i = 0; i < length; i += 8) {
    const bits = word(seed, salt, index * 8 + i / 8);
    for (let j = 0; j < 8 && i + j < length; j++)
      scratch[i + j] = HEX_DIGITS[(bits >>> (j * 4)) & 15] as number;
  }
  return scratch.toString('latin1', 0, length);
}

/** An RFC 4122 version 4 UUID. */
export function seededUuid(seed: IdSeed, salt: number): string {
  return spellUuid((index) => word(seed, salt, index));
}
