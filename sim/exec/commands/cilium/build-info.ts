import { stableHex, stableNumber } from '../../format/hash.ts';

/**
 * The build line `cilium-dbg version` prints for a release, e.g.
 * `1.16.5 ad688277 2024-12-12T20:39:22+00:00 go version go1.22.10 linux/amd64`.
 * Commit and date are stable per version; the Go minor follows the release's toolchain.
 */
export function buildLine(version: string): string {
  const [, minor] = version.split('.').map(Number);
  const goMinor =
    ({ 13: 20, 14: 21, 15: 22, 16: 22, 17: 23, 18: 24 } as Record<number, number>)[minor ?? 16] ?? 24;
  const h = stableNumber(version);
  const month = String((h % 12) + 1).padStart(2, '0');
  const day = String((h % 28) + 1).padStart(2, '0');
  const year = 2016 + Math.floor((minor ?? 16) / 2);
  const date = `${year}-${month}-${day}T${String(h % 24).padStart(2, '0')}:39:22+00:00`;
  return `${version} ${stableHex(version, 8)} ${date} go version go1.${goMinor}.${h % 12} linux/amd64`;
}

/** The short form the agent puts in its status message: `1.16.5 (v1.16.5-ad688277)`. */
export function versionMessage(version: string): string {
  return `${version} (v${version}-${stableHex(version, 8)})`;
}
