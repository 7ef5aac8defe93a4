import { describe, expect, it } from 'vitest';
import { type KubeReader, RESOURCES } from '../../../src/cluster/types.ts';
import { readerUntilAborted } from '../../../src/cluster/until-aborted.ts';

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
