import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStore } from '../../cli/state-file.ts';
import type { StateStore } from '../../src/store/types.ts';
import { describeRunPages } from '../src/store/run-pages-suite.ts';
import { describeStateStore, run } from '../src/store/state-store-suite.ts';

const freshFile = () => join(mkdtempSync(join(tmpdir(), 'responder-state-file-')), 'state.jsonl');

/**
 * The store in `path` as processes see it that each open the file, make one call and end, one at
 * a time as the lock has them: whatever a call leaves is read back from the file alone by the next.
 */
function reopenedForEveryCall(path: string): StateStore {
  const parts = Object.keys(fileStore(path).store) as (keyof StateStore)[];
  let previous: Promise<unknown> = Promise.resolve();
  return Object.fromEntries(
    parts.map((part) => [
      part,
      new Proxy(
        {},
        {
          get:
            (_, method: string) =>
            (...args: unknown[]) => {
              const call = previous.then(async () => {
                const opened = fileStore(path);
                try {
                  const target = opened.store[part] as unknown as Record<
                    string,
                    (...a: unknown[]) => unknown
                  >;
                  return await target[method]?.(...args);
                } finally {
                  opened.close();
                }
              });
              previous = call.catch(() => undefined);
              return call;
            },
        },
      ),
    ]),
  ) as unknown as StateStore;
}

describeStateStore('fileStore', async () => fileStore(freshFile()).store);
describeStateStore('fileStore, opened anew for every call', async () => reopenedForEveryCall(freshFile()));
describeRunPages('fileStore, opened anew for every call', async () => reopenedForEveryCall(freshFile()));

const T0 = new Date('2026-03-02T10:00:00.000Z');

describe('the local state file', () => {
  it('keeps what was written before a process was killed in the middle of an append', async () => {
    const path = freshFile();
    const first = fileStore(path);
    await first.store.runs.put(run('r1', 'prod', T0.toISOString(), { status: 'running' }));
    expect(await first.store.brake.take('prod', 5, 600, T0)).toBeDefined();
    first.close();
    appendFileSync(path, '["runs","r2",{"runId":"r2","clu');
    const second = fileStore(path);
    expect((await second.store.runs.get('r1'))?.status).toBe('running');
    expect(await second.store.runs.get('r2')).toBeUndefined();
    expect((await second.store.brake.state('prod', 5, 600, T0)).used).toBe(1);
    // What it writes next is read back whole, after the torn line.
    await second.store.runs.put(run('r3', 'prod', T0.toISOString()));
    second.close();
    expect(await fileStore(path).store.runs.get('r3')).toMatchObject({ runId: 'r3' });
  });

  it('refuses a file damaged before its end, naming it and the line', () => {
    const path = freshFile();
    writeFileSync(path, '["threads","a",{"channel":"C1","ts":"1.0"}]\nnot json\n["threads","b",null]\n');
    expect(() => fileStore(path)).toThrow(`the local state file ${path} is damaged at line 2`);
  });

  it('is rewritten with only the latest of each entry once it holds many stale lines', async () => {
    const path = freshFile();
    const first = fileStore(path);
    for (let i = 0; i < 1200; i++)
      await first.store.threads.set('prod/unmanaged-pods', { channel: 'C1', ts: `${i}.0` });
    await first.store.runs.put(run('r1', 'prod', T0.toISOString()));
    first.close();
    expect(readFileSync(path, 'utf8').split('\n').length).toBeGreaterThan(1200);
    const second = fileStore(path);
    second.close();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
    const third = fileStore(path).store;
    expect(await third.threads.get('prod/unmanaged-pods')).toEqual({ channel: 'C1', ts: '1199.0' });
    expect(await third.runs.get('r1')).toMatchObject({ runId: 'r1', status: 'queued' });
  });
});
