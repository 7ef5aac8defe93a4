import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLocalState } from '../../cli/local-state.ts';

describe('openLocalState', () => {
  // dynalite creates a table as CREATING and makes it ACTIVE a moment later; the first command
  // on a fresh machine writes at once, and was told "Requested resource not found" in between.
  it('takes a write at once on a fresh state directory', async () => {
    for (let i = 0; i < 10; i++) {
      const state = await openLocalState(mkdtempSync(join(tmpdir(), 'responder-state-')));
      try {
        await state.store.threads.set('prod/unmanaged-pods', { channel: 'C1', ts: `${i}.0` });
        expect(await state.store.threads.get('prod/unmanaged-pods')).toMatchObject({ ts: `${i}.0` });
      } finally {
        await state.close();
      }
    }
  });

  it('keeps what one command wrote for the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-state-'));
    const first = await openLocalState(dir);
    await first.store.threads.set('prod/host-identity', { channel: 'C1', ts: '1.0' });
    await first.close();
    const second = await openLocalState(dir);
    expect(await second.store.threads.get('prod/host-identity')).toMatchObject({ ts: '1.0' });
    await second.close();
  });
});

describe('the local state, one command at a time', () => {
  it('tells a second opener who holds it, and opens once it is closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-state-'));
    const first = await openLocalState(dir);
    await expect(openLocalState(dir)).rejects.toThrow(
      new RegExp(`the local state in ${dir} is in use by \`responder .*\` \\(pid ${process.pid} on `),
    );
    await first.close();
    const second = await openLocalState(dir);
    await second.close();
  });

  it('takes over the lock of a process that is gone from this host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'responder-state-'));
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      join(dir, 'responder.lock'),
      JSON.stringify({
        pid: gone,
        host: hostname(),
        command: 'serve --state',
        since: new Date().toISOString(),
      }),
    );
    const state = await openLocalState(dir);
    await state.close();
  });
});
