import { createHash } from 'node:crypto';

/**
 * A finding's identity across runs: the same problem at the same place gets the same fingerprint,
 * so chat threads and dedupe follow the problem, not the wording of its message.
 */
export function fingerprint(cluster: string, runbook: string, code: string, target: string): string {
  return createHash('sha256')
    .update([cluster, runbook, code, target].join('\u0000'))
    .digest('hex')
    .slice(0, 16);
}
