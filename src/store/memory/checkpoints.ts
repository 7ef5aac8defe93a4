import { expiryAt, hasExpired } from '../expiry.ts';
import type { CheckpointStore } from '../types.ts';

/** Checkpoints for one process, kept as JSON text so a load never shares objects with the saver. */
export function memoryCheckpoints(): CheckpointStore {
  const saved = new Map<string, { json: string; expiresAt: number }>();
  const keyOf = (runId: string, id: string) => JSON.stringify([runId, id]);
  return {
    async save(runId, id, checkpoint, ttlSeconds, now) {
      saved.set(keyOf(runId, id), { json: JSON.stringify(checkpoint), expiresAt: expiryAt(now, ttlSeconds) });
    },
    async load(runId, id, now) {
      const entry = saved.get(keyOf(runId, id));
      if (!entry || hasExpired(entry.expiresAt, now)) return undefined;
      return JSON.parse(entry.json);
    },
  };
}
