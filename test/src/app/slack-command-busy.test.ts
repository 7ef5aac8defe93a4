import { describe, expect, it } from 'vitest';
import {
  ALERTMANAGER_TOKEN,
  appUnderTest,
  CLUSTER,
  commandBody,
  signedHeaders,
  unmanagedAlert,
} from '../../functions/harness.ts';

describe('a Slack request for a run that is going on', () => {
  it('is answered at once with that run, who started it and where its report goes; nothing is queued', async () => {
    const t = appUnderTest();
    const alert = await t.app.request('/alerts/alertmanager', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
      body: JSON.stringify(unmanagedAlert()),
    });
    expect(alert.status).toBe(202);
    const [job] = t.queue.sent;
    const record = await t.store.runs.get(job?.id as string);
    const startedAt = t.clock.now().toISOString();
    // The worker took the run: the lease is held and the record says running.
    await t.store.leases.acquire(`${CLUSTER}|unmanaged-pods`, `${job?.id}/d-1 (pid 7)`, 60, t.clock.now());
    await t.store.runs.put({ ...(record as NonNullable<typeof record>), status: 'running', startedAt });

    const ask = async () => {
      const body = commandBody({ trigger_id: `t-${Math.random()}` });
      const response = await t.app.request('/slack/commands', {
        method: 'POST',
        headers: signedHeaders(body, t.clock.now()),
        body,
      });
      return ((await response.json()) as { text: string }).text;
    };
    expect(await ask()).toBe(
      `Not queued: unmanaged-pods on ${CLUSTER} is already running (run ${job?.id}, started by alertmanager (${record?.reason}) at ${startedAt}). Its report will be posted in #${CLUSTER}; ask again once it has ended for a run of your own.`,
    );
    expect(t.queue.sent).toHaveLength(1);
    expect(await t.store.runs.list()).toHaveLength(1);

    await t.store.leases.release(`${CLUSTER}|unmanaged-pods`, `${job?.id}/d-1 (pid 7)`);
    expect(await ask()).toMatch(/^Queued unmanaged-pods on prod-eu \(dry-run\)/);
    expect(t.queue.sent).toHaveLength(2);
  });
});
