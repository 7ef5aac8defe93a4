import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import {
  ALERTMANAGER_TOKEN,
  APPROVER,
  type AppUnderTest,
  appUnderTest,
  BYSTANDER,
  commandBody,
  configText,
  RUNBOOK_IDS,
  signedHeaders,
  unmanagedAlert,
} from './harness.ts';

/** Params are checked by the runbook's own schema when the request comes in, not in the worker. */

async function slash(t: AppUnderTest, text: string) {
  const body = commandBody({ text });
  const response = await t.app.request('/slack/commands', {
    method: 'POST',
    headers: signedHeaders(body, t.clock.now()),
    body,
  });
  return {
    status: response.status,
    json: (await response.json()) as { response_type: string; text: string },
  };
}

async function expectNoJob(t: AppUnderTest) {
  expect(t.queue.sent).toEqual([]);
  expect(await t.store.runs.list()).toEqual([]);
}

const UNMANAGED_KEYS = 'valid keys: gracePeriodSeconds, namespaces';

describe('a slash command with a param its runbook refuses', () => {
  it.each([
    ['gracePeriodSeconds=-1', 'gracePeriodSeconds: must be 0 or more seconds'],
    ['namespaces=', 'namespaces: must name at least one namespace'],
    ['gracePeriod=30', 'gracePeriod: unknown key'],
    ['namespaces=Shop', 'namespaces: must be a namespace name'],
  ])(
    'unmanaged-pods %s → an ephemeral answer naming the key and the valid keys, no job',
    async (param, said) => {
      const t = appUnderTest();
      const answer = await slash(t, `run unmanaged-pods ${param}`);
      expect(answer.status).toBe(200);
      expect(answer.json.response_type).toBe('ephemeral');
      expect(answer.json.text).toContain(said);
      expect(answer.json.text).toContain(`(unmanaged-pods: ${UNMANAGED_KEYS})`);
      expect(answer.json.text).toMatch(/Nothing was queued\.$/);
      await expectNoJob(t);
    },
  );

  it('host-identity verifyTimeoutSeconds=99999 → names the key and its bound, no job', async () => {
    const t = appUnderTest();
    const answer = await slash(t, 'run host-identity verifyTimeoutSeconds=99999');
    expect(answer.json.text).toMatch(/^verifyTimeoutSeconds: .*900/);
    expect(answer.json.text).toContain('valid keys: monitorSeconds, verifyTimeoutSeconds');
    await expectNoJob(t);
  });

  it('a runbook that takes no params says so', async () => {
    const t = appUnderTest();
    const answer = await slash(t, 'run cgroup-root-hooks depth=3');
    expect(answer.json.text).toContain('depth: unknown key (cgroup-root-hooks: it takes no parameters)');
    await expectNoJob(t);
  });

  it('run all: each runbook gets the keys it takes; a key none takes is refused with the valid ones', async () => {
    const t = appUnderTest();
    await slash(t, 'run all gracePeriodSeconds=60');
    expect(t.queue.sent.map((job) => [job.runbook, job.params])).toEqual(
      RUNBOOK_IDS.map((id) => [id, id === 'unmanaged-pods' ? { gracePeriodSeconds: 60 } : {}]),
    );

    const refused = appUnderTest();
    const answer = await slash(refused, 'run all gracePeriod=60');
    expect(answer.json.text).toContain(
      'gracePeriod: unknown key (no runbook takes it; valid keys: gracePeriodSeconds, namespaces, monitorSeconds, verifyTimeoutSeconds)',
    );
    await expectNoJob(refused);
  });

  it('valid params queue as the runbook reads them: numbers and lists', async () => {
    const t = appUnderTest();
    const answer = await slash(t, 'run unmanaged-pods gracePeriodSeconds=0 namespaces=shop,web');
    expect(answer.json.text).toMatch(/^Queued unmanaged-pods/);
    expect(t.queue.sent[0]?.params).toEqual({ gracePeriodSeconds: 0, namespaces: ['shop', 'web'] });
  });
});

describe('an alert routed with params its runbook refuses', () => {
  it('is a 400 naming the key, and nothing is queued', async () => {
    const text = configText().replace(
      '    runbook: unmanaged-pods\n    mode: auto',
      '    runbook: unmanaged-pods\n    mode: auto\n    params: { gracePeriodSeconds: -1 }',
    );
    const t = appUnderTest({ config: parseConfig(text, 'test-config.yaml', { runbooks: RUNBOOK_IDS }) });
    const response = await t.app.request('/alerts/alertmanager', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
      body: JSON.stringify(unmanagedAlert()),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: `gracePeriodSeconds: must be 0 or more seconds (unmanaged-pods: ${UNMANAGED_KEYS})`,
      field: 'gracePeriodSeconds',
    });
    await expectNoJob(t);
  });
});

describe('params on a plan that can change the cluster', () => {
  it('a non-approver may not set them (mode=approve): refused, saying how to go on, no job', async () => {
    const t = appUnderTest();
    const body = commandBody({
      text: 'run unmanaged-pods mode=approve gracePeriodSeconds=0',
      user_id: BYSTANDER,
    });
    const response = await t.app.request('/slack/commands', {
      method: 'POST',
      headers: signedHeaders(body, t.clock.now()),
      body,
    });
    const answer = (await response.json()) as { text: string };
    expect(answer.text).toBe(
      `Not run: <@${BYSTANDER}> is not an approver of unmanaged-pods: only approvers may set params (gracePeriodSeconds) on a plan that can change the cluster; leave them out, or ask an approver.`,
    );
    await expectNoJob(t);
  });

  it("a non-approver's plan without params, and an approver's with them, are queued; the job says who set each", async () => {
    const t = appUnderTest();
    await slash(t, 'run unmanaged-pods mode=approve');
    const body = commandBody({
      text: 'run unmanaged-pods mode=approve gracePeriodSeconds=0',
      user_id: APPROVER,
      // Another invocation: a retry of the first (same trigger_id) would be a duplicate.
      trigger_id: 'another-invocation',
    });
    await t.app.request('/slack/commands', {
      method: 'POST',
      headers: signedHeaders(body, t.clock.now()),
      body,
    });
    expect(t.queue.sent.map((job) => job.paramsBy)).toEqual([
      undefined,
      { gracePeriodSeconds: `<@${APPROVER}>` },
    ]);
    const records = await t.store.runs.list();
    expect(records.map((r) => r.paramsBy)).toContainEqual({ gracePeriodSeconds: `<@${APPROVER}>` });
  });
});
