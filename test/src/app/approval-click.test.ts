import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerApprovalClick } from '../../../src/app/approval-click.ts';
import type { Dispatched } from '../../../src/routing/dispatch.ts';
import { slackSink } from '../../../src/slack/sink.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { Trigger } from '../../../src/triggers/types.ts';
import { needsApproval } from '../chat/reports.ts';
import { waitingRun } from '../routing/fixtures.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';

const NOTHING: Dispatched = {
  queued: [],
  duplicates: [],
  absorbed: [],
  resolved: [],
  skipped: [],
  refused: [],
};

function click(decision: 'approve' | 'reject'): Trigger {
  return {
    source: 'slack-action',
    receivedAt: '2024-05-01T12:00:00.000Z',
    deliveryKey: `click-${decision}`,
    alerts: [],
    actor: { kind: 'user', id: 'U0APPROVER1' },
    reply: { channel: 'C0CILIUM01', threadTs: '1714564800.000001' },
    approval: {
      runId: 'run-0001',
      decision,
      approved: decision === 'approve' ? ['evict-pod:shop/web-1'] : [],
    },
  };
}

describe('answerApprovalClick', () => {
  let slack: Awaited<ReturnType<typeof startFakeSlack>>;
  beforeEach(async () => {
    slack = await startFakeSlack();
  });
  afterEach(() => slack.close());

  async function answer(trigger: Trigger, result: Partial<Dispatched>) {
    const store = memoryStore();
    await store.runs.put(
      waitingRun({ runId: 'run-0001', plan: ['evict-pod:shop/web-1'], report: needsApproval }),
    );
    const chat = slackSink({ token: 'xoxb-test', slackApiUrl: slack.url });
    return answerApprovalClick(
      trigger,
      { dispatch: async () => ({ ...NOTHING, ...result }) },
      { chat, runs: store.runs },
    );
  }

  it('replaces the buttons with the outcome and who approved, keeping the report', async () => {
    const text = await answer(click('approve'), { queued: [{} as Dispatched['queued'][number]] });
    expect(text).toMatch(/^Approved by <@U0APPROVER1>: running the 1 approved actions/);
    const [update] = slack.calls;
    expect(update?.method).toBe('chat.update');
    expect(update?.params).toMatchObject({ channel: 'C0CILIUM01', ts: '1714564800.000001' });
    const blocks = JSON.parse(update?.params.blocks ?? '[]') as {
      type: string;
      elements?: { text: string }[];
    }[];
    expect(blocks.some((block) => block.type === 'actions')).toBe(false);
    expect(blocks.some((block) => block.type === 'header')).toBe(true);
    expect(blocks.at(-1)?.elements?.[0]?.text).toBe(text);
  });

  it('says who rejected, and that nothing was done', async () => {
    expect(await answer(click('reject'), { skipped: ['run run-0001 rejected'] })).toBe(
      'Rejected by <@U0APPROVER1>: nothing was done.',
    );
    expect(slack.calls.map((call) => call.method)).toEqual(['chat.update']);
  });

  it('settles an expired plan so nobody clicks it again', async () => {
    const reason =
      'the plan of run run-0001 was made at 2024-05-01T11:00:00.000Z and expired after 30 min: run it again for a fresh plan';
    expect(await answer(click('approve'), { refused: [reason] })).toBe(`Expired: ${reason}`);
    expect(slack.calls.map((call) => call.method)).toEqual(['chat.update']);
  });

  it('tells a non-approver alone, and leaves the buttons for an approver', async () => {
    const reason = '<@U0APPROVER1> may not approve unmanaged-pods runs';
    expect(await answer(click('approve'), { refused: [reason] })).toBe(reason);
    expect(slack.calls.map((call) => [call.method, call.params.user])).toEqual([
      ['chat.postEphemeral', 'U0APPROVER1'],
    ]);
  });
});
