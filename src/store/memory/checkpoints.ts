import { expiryAt, hasExpired } from '../expiry.ts';
import type { CheckpointStore } from '../types.ts';

export interface SavedCheckpoint {
  json: string;
  expiresAt: number;
}

/** Where a checkpoint is kept in the map: one key per (run, id), whatever characters they hold. */
export const checkpointKey = (runId: string, id: string) => JSON.stringify([runId, id]);

/** Checkpoints for one process, kept as JSON text so a load never shares objects with the saver. */
export function memoryCheckpoints(saved = new Map<string, SavedCheckpoint>()): CheckpointStore {
  return {
    async save(runId, id, checkpoint, ttlSeconds, now) {
      saved.set(checkpointKey(runId, id), {
        json: JSON.stringify(checkpoint),
        expiresAt: expiryAt(now, ttlSeconds),
      });
    },
    async load(runId, id, now) {
      const entry = saved.get(checkpointKey(runId, id));
      if (!entry || hasExpired(entry.expiresAt, now)) return undefined;
      return JSON.parse(entry.json);
    },
  };
}
