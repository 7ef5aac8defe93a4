import { describe, expect, it } from 'vitest';
import { anySignal } from '../../../src/cluster/any-signal.ts';
import { collectingGarbage } from '../../helpers/gc.ts';

/** Resolves with whether `signal` aborted within `ms`. */
function abortsWithin(signal: AbortSignal, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const bound = setTimeout(() => resolve(false), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(bound);
      resolve(true);
    });
  });
}

describe('anySignal', () => {
  it('aborts when a timeout only it holds fires, however often memory is collected', async () => {
    const stopCollecting = collectingGarbage();
    try {
      // The stop never comes: only the timeout can end it, as a run's deadline does.
      const composite = anySignal([new AbortController().signal, AbortSignal.timeout(100)]);
      expect(await abortsWithin(composite, 3_000)).toBe(true);
      expect((composite.reason as Error).name).toBe('TimeoutError');
    } finally {
      stopCollecting();
    }
  });

  it('aborts with the reason of the source that aborts first', async () => {
    const stop = new AbortController();
    const composite = anySignal([AbortSignal.timeout(60_000), stop.signal]);
    expect(composite.aborted).toBe(false);
    stop.abort(new Error('stopped by Ctrl-C'));
    expect(composite.aborted).toBe(true);
    expect((composite.reason as Error).message).toBe('stopped by Ctrl-C');
  });
});
