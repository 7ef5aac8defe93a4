import { createHash } from 'node:crypto';

/** A stable 32-bit number from a string (FNV-1a), so simulated ids and addresses never change between runs. */
export function stableNumber(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A stable lowercase hex string of the given length, e.g. a 64-hex container id. */
export function stableHex(seed: string, length: number): string {
  return createHash('sha256')
    .update(seed)
    .digest('hex')
    .repeat(Math.ceil(length / 64))
    .slice(0, length);
}
