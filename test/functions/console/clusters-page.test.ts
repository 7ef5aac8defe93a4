import { describe, expect, it } from 'vitest';
import { run } from '../../src/store/state-store-suite.ts';
import { CLUSTER } from '../harness.ts';
import { consoleUnderTest } from './harness.ts';

describe('/ui/clusters', () => {
  it("shows each runbook's last run and verdict, the brake's writes in the window and when it frees, and leases held", async () => {
    const setup = consoleUnderTest();
    const { store, clock } = setup;
    await store.runs.put(
      run('r-old', CLUSTER, '2026-11-21T08:00:00.000Z', { status: 'done', verdict: 'failed' }),
    );
    await store.runs.put(
      run('r-new', CLUSTER, '2026-11-21T09:00:00.000Z', {
        status: 'done',
        verdict: 'remediated',
        summary: { diagnosis: '2 pods evicted on prod-eu', found: 2, fixed: 2, open: 0 },
      }),
    );
    await store.runs.put(
      run('r-host', CLUSTER, '2026-11-21T08:30:00.000Z', {
        runbook: 'host-identity',
        status: 'done',
        verdict: 'healthy',
      }),
    );
    // 20 writes allowed in 15 minutes (the test config): all taken, the first at 09:50.
    clock.set(new Date('2026-11-21T09:50:00.000Z'));
    for (let i = 0; i < 20; i++) await store.brake.take(CLUSTER, 20, 15 * 60, clock.now());
    clock.set(new Date('2026-11-21T10:00:00.000Z'));
    await store.leases.acquire(`${CLUSTER}|unmanaged-pods`, 'job-9/d-1 (pid 7 on w1)', 600, clock.now());
    const html = await (await setup.get('/ui/clusters', { cookie: await setup.signIn() })).text();
    expect(html).toContain('<h2>prod-eu</h2>');
    expect(html).toContain(
      'Brake engaged: no writes until it frees: 20 of 20 writes in the window; the oldest stops counting at 2026-11-21T10:05:00.000Z.',
    );
    const row = (runbook: string) => new RegExp(`<tr><td>${runbook}</td>.*?</tr>`).exec(html)?.[0] ?? '';
    expect(row('unmanaged-pods')).toContain('href="/ui/runs/r-new"');
    expect(row('unmanaged-pods')).toContain('remediated');
    expect(row('unmanaged-pods')).toContain('2 pods evicted on prod-eu');
    expect(row('unmanaged-pods')).toContain('held by job-9/d-1 (pid 7 on w1) until 2026-11-21T10:10:00.000Z');
    expect(row('host-identity')).toContain('href="/ui/runs/r-host"');
    expect(row('host-identity')).toContain('healthy');
    expect(row('host-identity')).toContain('<td>free</td>');
    expect(row('tunnel-datapath')).toContain('never run');
  });

  it('says the brake is released when the window holds no write', async () => {
    const setup = consoleUnderTest();
    const html = await (await setup.get('/ui/clusters', { cookie: await setup.signIn() })).text();
    expect(html).toContain('Brake released: 0 of 20 writes in the window.');
  });
});
