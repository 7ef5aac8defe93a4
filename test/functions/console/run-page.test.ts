import { describe, expect, it } from 'vitest';
import { consoleUrlSource } from '../../../src/chat/console-link.ts';
import { summarize } from '../../../src/report/summary.ts';
import { slackSink } from '../../../src/slack/sink.ts';
import { startFakeSlack } from '../../src/slack/fake-slack.ts';
import { APPROVER, BYSTANDER, FORM } from '../harness.ts';
import { consoleUnderTest, ORIGIN } from './harness.ts';
import { HOSTILE, waitingRun } from './waiting-run.ts';

async function withWaitingRun() {
  const console = consoleUnderTest();
  const record = waitingRun();
  await console.store.runs.put(record);
  return { ...console, record };
}

/** The session's form token, as the page carries it. */
function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no decision form on the page');
  return token;
}

describe('/ui/runs/<runId>', () => {
  it("shows the report model's diagnosis, each problem in its state, the steps, trigger, params and plan", async () => {
    const { get, signIn, record } = await withWaitingRun();
    const answer = await get('/ui/runs/run-wait-1', { cookie: await signIn(BYSTANDER) });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const summary = summarize(record.report as NonNullable<typeof record.report>);
    expect(html).toContain(`<p class="diagnosis">${summary.diagnosis}</p>`);
    expect(html).toContain('<td class="state-planned">planned</td>');
    expect(html).toContain('Find unmanaged pods');
    expect(html).toContain('ip-10-0-1-23: cilium-dbg endpoint list');
    expect(html).toContain('evict-pod:shop/web-2');
    expect(html).toContain('<td>namespaces</td><td>[&quot;shop&quot;]</td><td>&lt;@U0APPROVER1&gt;</td>');
    expect(html).toContain('CiliumUnmanagedPods');
    expect(html).toContain('href="/ui/runs/run-wait-1/report.txt"');
    expect(html).toContain('Waiting for an approver.');
    // Not an approver of unmanaged-pods: no buttons.
    expect(html).not.toContain('name="decision"');
  });

  it('shows what alerts and clusters say as text, never as markup', async () => {
    const { get, signIn } = await withWaitingRun();
    const html = await (await get('/ui/runs/run-wait-1', { cookie: await signIn() })).text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(HOSTILE.script).toContain('<script>');
  });

  it('gives the full report as a text download', async () => {
    const { get, signIn } = await withWaitingRun();
    const answer = await get('/ui/runs/run-wait-1/report.txt', { cookie: await signIn() });
    expect(answer.headers.get('content-disposition')).toBe(
      'attachment; filename="unmanaged-pods-run-wait-1.txt"',
    );
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await answer.text()).toContain(
      'unmanaged-pods on prod-eu (approve), run run-wait-1: needs approval',
    );
  });

  it('says when there is no such run', async () => {
    const { get, signIn } = await withWaitingRun();
    const answer = await get('/ui/runs/run-nope', { cookie: await signIn() });
    expect(answer.status).toBe(404);
  });
});

describe('Approve and Reject in the console', () => {
  async function decide(
    setup: Awaited<ReturnType<typeof withWaitingRun>>,
    user: string,
    decision: 'approve' | 'reject',
    change: { origin?: string; csrf?: string } = {},
  ) {
    const cookie = await setup.signIn(user);
    const page = await (await setup.get('/ui/runs/run-wait-1', { cookie })).text();
    const token = change.csrf ?? csrfOf(page);
    return setup.http.request(`${ORIGIN}/ui/runs/run-wait-1/decision`, {
      method: 'POST',
      headers: { cookie, 'content-type': FORM, origin: change.origin ?? ORIGIN, accept: 'text/html' },
      body: new URLSearchParams({ csrf: token, decision }).toString(),
    });
  }

  it("lets the runbook's approver approve: the run resumes with exactly the plan, and who decided is recorded", async () => {
    const setup = await withWaitingRun();
    const page = await (await setup.get('/ui/runs/run-wait-1', { cookie: await setup.signIn() })).text();
    expect(page).toContain('<button type="submit" name="decision" value="approve">');
    const answer = await decide(setup, APPROVER, 'approve');
    // Post/Redirect/Get: to the run's page, which shows the decision from the store; a reload posts nothing.
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/ui/runs/run-wait-1');
    const after = await (await setup.get('/ui/runs/run-wait-1', { cookie: await setup.signIn() })).text();
    expect(after).toContain(`approved by ${APPROVER} (${APPROVER}) at 2026-11-21T10:00:00.000Z`);
    expect(after).not.toContain('name="decision"');
    const sent = setup.queue.sent;
    expect(sent.map((job) => job.resume)).toEqual([
      { runId: 'run-wait-1', approved: ['evict-pod:shop/web-1', 'evict-pod:shop/web-2'] },
    ]);
    const record = await setup.store.runs.get('run-wait-1');
    expect(record?.decision).toMatchObject({
      outcome: 'approved',
      by: APPROVER,
      at: '2026-11-21T10:00:00.000Z',
    });
    // One decision per run: a second approval (or a rejection) changes nothing.
    const again = await decide(setup, APPROVER, 'reject');
    expect(again.status).toBe(403);
    expect(sent).toHaveLength(1);
    expect((await setup.store.runs.get('run-wait-1'))?.decision?.outcome).toBe('approved');
  });

  it('lets the approver reject: nothing runs, and the page says who rejected', async () => {
    const setup = await withWaitingRun();
    const answer = await decide(setup, APPROVER, 'reject');
    expect(answer.status).toBe(303);
    const after = await (await setup.get('/ui/runs/run-wait-1', { cookie: await setup.signIn() })).text();
    expect(after).toContain(`rejected by ${APPROVER} (${APPROVER}) at 2026-11-21T10:00:00.000Z`);
    expect(setup.queue.sent).toEqual([]);
    expect((await setup.store.runs.get('run-wait-1'))?.decision).toMatchObject({
      outcome: 'rejected',
      by: APPROVER,
    });
  });

  it('refuses anyone who is not an approver of that runbook, even posting the form by hand', async () => {
    const setup = await withWaitingRun();
    const cookie = await setup.signIn(BYSTANDER);
    const page = await (await setup.get('/ui/runs/run-wait-1', { cookie })).text();
    // No decision form; the session's token is on the page all the same (its sign-out form).
    const answer = await setup.http.request(`${ORIGIN}/ui/runs/run-wait-1/decision`, {
      method: 'POST',
      headers: { cookie, 'content-type': FORM, origin: ORIGIN },
      body: new URLSearchParams({ csrf: csrfOf(page), decision: 'approve' }).toString(),
    });
    expect(page).not.toContain('name="decision"');
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain(`&lt;@${BYSTANDER}&gt; may not approve unmanaged-pods runs`);
    expect(setup.queue.sent).toEqual([]);
    expect((await setup.store.runs.get('run-wait-1'))?.decision).toBeUndefined();
  });

  it('refuses a plan older than approvalMinutes', async () => {
    const setup = await withWaitingRun();
    setup.clock.advance(31 * 60_000);
    const answer = await decide(setup, APPROVER, 'approve');
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('expired after 30 min');
    expect(setup.queue.sent).toEqual([]);
  });

  it('refuses a post from another origin, and one without the session token', async () => {
    const setup = await withWaitingRun();
    const crossSite = await decide(setup, APPROVER, 'approve', { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const noToken = await decide(setup, APPROVER, 'approve', { csrf: 'forged' });
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain('not from the console');
    expect(setup.queue.sent).toEqual([]);
  });

  it('keeps the console link on the Slack message an approval in the console settles', async () => {
    const slack = await startFakeSlack();
    try {
      // As the http function composes it: no configured URL, the origin it is served at instead.
      const consoleUrl = consoleUrlSource(undefined);
      const chat = slackSink({ token: 'xoxb-test', slackApiUrl: slack.url, consoleUrl: consoleUrl.url });
      const setup = consoleUnderTest({ chat, servedAt: consoleUrl.servedAt });
      await setup.store.runs.put({
        ...waitingRun(),
        thread: { channel: 'C0CILIUM01', ts: '1714564800.000001' },
      });
      const answer = await decide({ ...setup, record: waitingRun() }, APPROVER, 'approve');
      expect(answer.status).toBe(303);
      const update = slack.calls.find((call) => call.method === 'chat.update');
      expect(update?.params).toMatchObject({ channel: 'C0CILIUM01', ts: '1714564800.000001' });
      const blocks = JSON.stringify(JSON.parse(update?.params.blocks ?? '[]'));
      expect(blocks).toContain(`<${ORIGIN}/ui/runs/run-wait-1|Open this run in the console>`);
      expect(blocks).toContain(`Approved by <@${APPROVER}>`);
    } finally {
      await slack.close();
    }
  });
});
