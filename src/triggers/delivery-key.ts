import { createHash } from 'node:crypto';
import type { TriggerSource } from './types.ts';

/**
 * A Trigger's dedupe identity, built only from the source's own ids. Hashed so it stays short
 * whatever goes in (an Alertmanager group key plus dozens of fingerprints), and prefixed with the
 * source so two sources can never share a key.
 */
export function deliveryKey(source: TriggerSource, ids: readonly string[]): string {
  const digest = createHash('sha256').update(JSON.stringify(ids)).digest('hex').slice(0, 32);
  return `${source}:${digest}`;
}
