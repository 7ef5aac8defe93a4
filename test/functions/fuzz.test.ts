import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALERTMANAGER_TOKEN,
  type AppUnderTest,
  appUnderTest,
  FORM,
  OPERATOR_TOKEN,
  signedHeaders,
} from './harness.ts';

/**
 * Hostile and malformed input at every endpoint: whatever arrives, the answer is a 4xx (or
 * Slack's 200 with an ephemeral correction for a typo in a signed command), never a 5xx, and no
 * job is queued and no run recorded. 10,000 inputs per endpoint per run, seeded so a failure
 * replays.
 */
const RUNS = 10_000;
const SEED = 20261124;

/** JSON that looks a little like an Alertmanager webhook: right keys, wrong shapes. */
const webhookish = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      version: fc.oneof(fc.constant('4'), fc.jsonValue()),
      status: fc.oneof(fc.constantFrom('firing', 'resolved'), fc.jsonValue()),
      receiver: fc.jsonValue(),
      groupKey: fc.jsonValue(),
      alerts: fc.oneof(
        fc.array(
          fc.record(
            {
              status: fc.jsonValue(),
              labels: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
              annotations: fc.jsonValue(),
              startsAt: fc.jsonValue(),
              fingerprint: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 5 },
        ),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  ),
);

async function expectNothingQueued(t: AppUnderTest) {
  expect(t.queue.sent).toEqual([]);
  expect(await t.store.runs.list()).toEqual([]);
}

function request(t: AppUnderTest, path: string, init: RequestInit) {
  return t.app.request(path, init);
}

describe('every endpoint under 10,000 hostile inputs', () => {
  it('POST /alerts/alertmanager: 4xx for anything not a valid webhook, zero jobs', async () => {
    const t = appUnderTest();
    await fc.assert(
      fc.asyncProperty(webhookish, fc.boolean(), async (body, authorized) => {
        const response = await request(t, '/alerts/alertmanager', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(authorized ? { authorization: `Bearer ${ALERTMANAGER_TOKEN}` } : {}),
          },
          body: JSON.stringify(body),
        });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await expectNothingQueued(t);
  }, 120_000);

  it('POST /alerts/alertmanager: raw bytes that are not JSON, 4xx', async () => {
    const t = appUnderTest();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (body) => {
        const response = await request(t, '/alerts/alertmanager', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
          body,
        });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await expectNothingQueued(t);
  }, 120_000);

  it.each(['/slack/commands', '/slack/interactions'])(
    'POST %s: signed or not, random forms never queue a job or fail with a 5xx',
    async (path) => {
      const t = appUnderTest();
      const form = fc
        .dictionary(
          fc.constantFrom(
            'command',
            'text',
            'user_id',
            'team_id',
            'trigger_id',
            'payload',
            'response_url',
            'x',
          ),
          fc.string({ maxLength: 80 }),
        )
        .map((fields) => new URLSearchParams(fields).toString());
      await fc.assert(
        fc.asyncProperty(form, fc.boolean(), async (body, signed) => {
          const response = await request(t, path, {
            method: 'POST',
            headers: signed ? signedHeaders(body, t.clock.now()) : { 'content-type': FORM },
            body,
          });
          if (!signed) expect(response.status).toBe(401);
          else if (response.status === 200)
            expect(((await response.json()) as { response_type?: string }).response_type).toBe('ephemeral');
          else expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      await expectNothingQueued(t);
    },
    120_000,
  );

  it('GET /runs and POST /brake/reset: 401 without the operator token, 4xx for bad queries and bodies', async () => {
    const t = appUnderTest();
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('limit', 'cluster', 'x'), fc.string({ maxLength: 20 })),
        fc.jsonValue(),
        fc.boolean(),
        async (query, body, authorized) => {
          const auth: Record<string, string> = authorized
            ? { authorization: `Bearer ${OPERATOR_TOKEN}` }
            : {};
          const runs = await request(t, `/runs?${new URLSearchParams(query)}`, { headers: auth });
          // A well-formed query is a fair question (the list, empty here); anything else is refused.
          expect(authorized ? [200, 400] : [401]).toContain(runs.status);
          const reset = await request(t, '/brake/reset', {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...auth },
            body: JSON.stringify(body),
          });
          expect(reset.status).toBeGreaterThanOrEqual(400);
          expect(reset.status).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    await expectNothingQueued(t);
  }, 120_000);
});
