import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../../src/app/app.ts';
import { consoleSink } from '../../../src/chat/console.ts';
import { slackDirectory } from '../../../src/slack/directory.ts';
import { memoryStore } from '../../../src/store/index.ts';
import type { StateStore } from '../../../src/store/types.ts';
import type { Trigger } from '../../../src/triggers/types.ts';
import { collector } from '../../functions/harness.ts';
import {
  approvalTrigger,
  recordingQueue,
  slackCommand,
  testClock,
  testConfig,
  waitingRun,
} from '../routing/fixtures.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';
import { testPorts } from './test-ports.ts';

/** The only approvers of unmanaged-pods are the members of one Slack user group. */
const ON_CALL = 'S0ONCALL';
const MEMBER = 'U0ONCALL1';
const OUTSIDER = 'U0OUTSIDER';
const PLAN = ['evict-pod:shop/web-1'];

interface Rig {
  app: App;
  store: StateStore;
  sent: unknown[];
}

describe('approvers configured only as a Slack user group', () => {
  let slack: Awaited<ReturnType<typeof startFakeSlack>>;
  beforeEach(async () => {
    slack = await startFakeSlack();
    // Slack answers for the group: one member, and it is not the outsider.
    slack.script('usergroups.users.list', { status: 200, body: { ok: true, users: [MEMBER] } });
  });
  afterEach(() => slack.close());

  async function rig(): Promise<Rig> {
    const store = memoryStore();
    await store.runs.put(waitingRun({ plan: PLAN }));
    const queue = recordingQueue();
    const app = createApp(
      testPorts({
        config: testConfig({ approvers: { 'unmanaged-pods': [ON_CALL] } }),
        store,
        queue,
        chat: consoleSink(collector().stream),
        directory: slackDirectory({ token: 'xoxb-test', slackApiUrl: slack.url }),
        now: testClock().now,
      }),
    );
    return { app, store, sent: queue.sent };
  }

  const applyBy = (user: string): Trigger => ({
    ...slackCommand({ cluster: 'prod-eu', runbook: 'unmanaged-pods', mode: 'auto' }),
    deliveryKey: `slack-command:${user}-apply`,
    actor: { kind: 'user', id: user },
  });
  const approveBy = (user: string) =>
    approvalTrigger(user, { runId: 'run-1', decision: 'approve', approved: PLAN });

  it('refuses --apply, the approval click and a brake reset from a user in none of the groups', async () => {
    const { app, store, sent } = await rig();

    const applied = await app.dispatch(applyBy(OUTSIDER));
    expect(applied.queued).toEqual([]);
    expect(applied.refused).toEqual([
      `<@${OUTSIDER}> is not an approver of unmanaged-pods: a run that changes the cluster needs one (approvers.unmanaged-pods or approvers."*" in the config)`,
    ]);

    const approved = await app.dispatch(approveBy(OUTSIDER));
    expect(approved.refused).toEqual([`<@${OUTSIDER}> may not approve unmanaged-pods runs`]);
    expect(await store.runs.get('run-1')).toMatchObject({ verdict: 'needs-approval' });
    expect((await store.runs.get('run-1'))?.decision).toBeUndefined();

    const reset = await app.resetBrake('prod-eu', {
      source: 'slack-command',
      actor: { kind: 'user', id: OUTSIDER },
    });
    expect(reset).toEqual({
      reset: false,
      refusal: `<@${OUTSIDER}> is not an approver: ask one to reset the brake.`,
    });
    expect(sent).toEqual([]);
    // The directory was asked, and said the outsider is in no approving group.
    expect(slack.calls.map((call) => call.params.usergroup)).toEqual([ON_CALL]);
  });

  it('lets a member of the group apply and approve', async () => {
    const { app, sent } = await rig();
    expect((await app.dispatch(applyBy(MEMBER))).queued).toHaveLength(1);
    expect((await app.dispatch(approveBy(MEMBER))).queued).toHaveLength(1);
    expect(sent).toHaveLength(2);
  });
});
