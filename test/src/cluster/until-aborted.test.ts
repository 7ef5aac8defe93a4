import { describe, expect, it } from 'vitest';
import { type ExecOptions, type KubeReader, RESOURCES } from '../../../src/cluster/types.ts';
import { readerUntilAborted } from '../../../src/cluster/until-aborted.ts';
import { collectingGarbage } from '../../helpers/gc.ts';

/** A reader whose list gives one page, then waits on the next for as long as `hold` says. */
function slowPages(hold: Promise<void>) {
  const closed: string[] = [];
  const reader = {
    clusterName: 'fake',
    async *pages() {
      try {
        yield ['first'];
        await hold;
        yield ['second'];
      } finally {
        closed.push('closed');
      }
    },
  } as unknown as KubeReader;
  return { reader, closed };
}

describe('readerUntilAborted: pages', () => {
  it('passes every page through and closes the list', async () => {
    const { reader, closed } = slowPages(Promise.resolve());
    const seen: string[][] = [];
    for await (const page of readerUntilAborted(reader, new AbortController().signal).pages(RESOURCES.pods, {
      project: 'metadata',
    }))
      seen.push(page as unknown as string[]);
    expect(seen).toEqual([['first'], ['second']]);
    expect(closed).toEqual(['closed']);
  });

  it('answers the reason at once when the run stops while a page is awaited', async () => {
    let release = () => {};
    const { reader, closed } = slowPages(new Promise((resolve) => (release = resolve)));
    const stop = new AbortController();
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const page of readerUntilAborted(reader, stop.signal).pages(RESOURCES.pods, {
        project: 'metadata',
      }))
        seen.push(page);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort(new Error('stopped by Ctrl-C'));
    await expect(reading).rejects.toThrow('stopped by Ctrl-C');
    expect(seen).toEqual([['first']]);
    // The list in flight closes once its request settles, without anyone waiting on it.
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toEqual(['closed']);
  });
});

describe('readerUntilAborted: exec', () => {
  it("ends an exec at the caller's own timeout, however often memory is collected", async () => {
    // An exec that runs until its signal aborts, as a monitor does.
    const reader = {
      clusterName: 'fake',
      exec: (_ns: string, _pod: string, _container: string, _command: string[], options?: ExecOptions) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
        }),
    } as unknown as KubeReader;
    const run = new AbortController();
    const stopCollecting = collectingGarbage();
    try {
      const exec = readerUntilAborted(reader, run.signal).exec(
        'kube-system',
        'cilium-a1',
        'cilium-agent',
        ['cilium-dbg', 'monitor'],
        {
          signal: AbortSignal.timeout(100),
        },
      );
      const bound = new Promise((resolve) => setTimeout(() => resolve('still running after 3 s'), 3_000));
      await expect(Promise.race([exec, bound])).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      stopCollecting();
    }
  });
});
