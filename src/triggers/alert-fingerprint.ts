/**
 * An alert's fingerprint exactly as Alertmanager computes it (prometheus/common
 * `model.LabelSet.Fingerprint`, i.e. `labelSetToFingerprint`): FNV-1a 64 over the labels sorted by
 * name, each written as name bytes, 0xff, value bytes, 0xff; printed as Alertmanager prints
 * `Fingerprint.String()`, 16 lowercase hex digits. Alertmanager sends it in the webhook since 0.19;
 * for older senders it is derived here, so the same alert has the same id either way.
 */

const OFFSET64 = 0xcbf29ce484222325n;
const PRIME64 = 0x100000001b3n;
const SEPARATOR_BYTE = 0xff;
const encoder = new TextEncoder();

function hashAdd(hash: bigint, bytes: Iterable<number>): bigint {
  let sum = hash;
  for (const byte of bytes) sum = BigInt.asUintN(64, (sum ^ BigInt(byte)) * PRIME64);
  return sum;
}

/** Go sorts strings by their UTF-8 bytes, which is not JavaScript's UTF-16 order for every name. */
function byUtf8(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const diff = (a[i] as number) - (b[i] as number);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}

export function alertFingerprint(labels: Readonly<Record<string, string>>): string {
  const names = Object.keys(labels)
    .map((name) => ({ name, bytes: encoder.encode(name) }))
    .sort((a, b) => byUtf8(a.bytes, b.bytes));
  let sum = OFFSET64;
  for (const { name, bytes } of names) {
    sum = hashAdd(sum, bytes);
    sum = hashAdd(sum, [SEPARATOR_BYTE]);
    sum = hashAdd(sum, encoder.encode(labels[name]));
    sum = hashAdd(sum, [SEPARATOR_BYTE]);
  }
  return sum.toString(16).padStart(16, '0');
}
