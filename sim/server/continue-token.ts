import { errors } from '../status.ts';
import type { ListTally } from '../store.ts';

/**
 * Continue tokens shaped like kube-apiserver's: base64 of `{"v":"meta.k8s.io/v1","rv":N,"start":key}`.
 * The revision pins the snapshot every later page is served from; the tally (ours; the token is
 * opaque to clients) carries the counts that give `remainingItemCount` without a rescan.
 */
export interface ContinuePosition {
  revision: number;
  after: string;
  tally?: ListTally;
}

export function encodeContinue(position: ContinuePosition): string {
  return Buffer.from(
    JSON.stringify({
      v: 'meta.k8s.io/v1',
      rv: position.revision,
      start: `${position.after}\u0000`,
      ...(position.tally ? { total: position.tally.total, seen: position.tally.seen } : {}),
    }),
  ).toString('base64url');
}

export function decodeContinue(token: string): ContinuePosition {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: string;
      rv?: number;
      start?: string;
      total?: number;
      seen?: number;
    };
    if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.rv !== 'number' || typeof parsed.start !== 'string')
      throw new Error();
    return {
      revision: parsed.rv,
      after: parsed.start.endsWith('\u0000') ? parsed.start.slice(0, -1) : parsed.start,
      ...(typeof parsed.total === 'number' && typeof parsed.seen === 'number'
        ? { tally: { total: parsed.total, seen: parsed.seen } }
        : {}),
    };
  } catch {
    throw errors.badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
}
