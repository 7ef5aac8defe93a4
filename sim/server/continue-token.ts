import { errors } from '../status.ts';

/**
 * Continue tokens as kube-apiserver makes them: base64 of `{"v":"meta.k8s.io/v1","rv":N,"start":key}`.
 * The revision pins the snapshot every later page is served from.
 */
export interface ContinuePosition {
  revision: number;
  after: string;
}

export function encodeContinue(position: ContinuePosition): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: position.revision, start: `${position.after}\u0000` }),
  ).toString('base64url');
}

export function decodeContinue(token: string): ContinuePosition {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: string;
      rv?: number;
      start?: string;
    };
    if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.rv !== 'number' || typeof parsed.start !== 'string')
      throw new Error();
    return {
      revision: parsed.rv,
      after: parsed.start.endsWith('\u0000') ? parsed.start.slice(0, -1) : parsed.start,
    };
  } catch {
    throw errors.badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
}
