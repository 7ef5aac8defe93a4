import { describe, expect, it } from 'vitest';
import { approvalValue } from '../../../src/slack/approval-value.ts';
import { parseBlockActions } from '../../../src/slack/interactions.ts';
import { EDGE, fixtureJson, triggerErrorOf } from '../triggers/fixtures.ts';

interface Action {
  action_id: string;
  value: string;
  action_ts: string;
  [field: string]: unknown;
}
interface BlockActions {
  actions: Action[];
  channel?: unknown;
  message?: unknown;
  [field: string]: unknown;
}

const sample = () => fixtureJson<BlockActions>('slack-block-actions.json');
/** The interactivity request as the edge decodes it: one form field holding the JSON. */
const formOf = (payload: unknown) => ({ payload: JSON.stringify(payload) });

function withAction(change: Partial<Action>): BlockActions {
  const payload = sample();
  payload.actions = [{ ...(payload.actions[0] as Action), ...change }];
  return payload;
}

describe('parseBlockActions', () => {
  it("turns Slack's documented block_actions example, pressing approve, into an approval", () => {
    expect(parseBlockActions(formOf(sample()), EDGE)).toEqual({
      source: 'slack-action',
      receivedAt: '2024-05-01T12:00:00.000Z',
      deliveryKey: expect.stringMatching(/^slack-action:[0-9a-f]{32}$/),
      alerts: [],
      actor: { kind: 'user', id: 'UA8RXUSPL', name: 'jtorrance' },
      reply: {
        channel: 'CBR2V3XEX',
        threadTs: '1548261231.000200',
        responseUrl: 'https://hooks.slack.com/actions/AABA1ABCD/1232321423432/D09sSasdasdAS9091209',
      },
      approval: {
        runId: 'run-0001',
        decision: 'approve',
        approved: ['evict-pod:shop/web-1', 'evict-pod:shop/web-2'],
      },
    });
  });

  it('reads a reject as approving nothing', () => {
    const trigger = parseBlockActions(formOf(withAction({ action_id: 'reject' })), EDGE);
    expect(trigger.approval).toEqual({ runId: 'run-0001', decision: 'reject', approved: [] });
  });

  it('reads the value approvalButtonValue writes', () => {
    const value = approvalValue('run-0042', ['restart-agent:ip-10-0-1-23']);
    const trigger = parseBlockActions(formOf(withAction({ value })), EDGE);
    expect(trigger.approval).toEqual({
      runId: 'run-0042',
      decision: 'approve',
      approved: ['restart-agent:ip-10-0-1-23'],
    });
  });

  it('falls back to the container for the channel and message', () => {
    const payload = sample();
    delete payload.channel;
    delete payload.message;
    expect(parseBlockActions(formOf(payload), EDGE).reply).toMatchObject({
      channel: 'CBR2V3XEX',
      threadTs: '1548261231.000200',
    });
  });

  it('keys a press by action_ts, action and run: a retry shares it, a second click does not', () => {
    const key = parseBlockActions(formOf(sample()), EDGE).deliveryKey;
    expect(parseBlockActions(formOf(sample()), { receivedAt: new Date() }).deliveryKey).toBe(key);
    expect(
      parseBlockActions(formOf(withAction({ action_ts: '1548426418.000001' })), EDGE).deliveryKey,
    ).not.toBe(key);
    expect(parseBlockActions(formOf(withAction({ action_id: 'reject' })), EDGE).deliveryKey).not.toBe(key);
  });

  it.each([
    ['a form with no payload', {}, 'payload', 'payload: missing (expected string)'],
    [
      'a payload that is no JSON',
      { payload: '{"type":' },
      'payload',
      'payload: expected a JSON document in this string',
    ],
    [
      'another interaction type',
      formOf({ ...sample(), type: 'view_submission' }),
      'payload.type',
      'payload.type: expected "block_actions", got "view_submission"',
    ],
    [
      'a button that is not ours',
      formOf(withAction({ action_id: 'WaXA' })),
      'payload.actions[0].action_id',
      'payload.actions[0].action_id: expected "approve" or "reject", got "WaXA"',
    ],
    [
      'a value that is no JSON',
      formOf(withAction({ value: 'click_me_123' })),
      'payload.actions[0].value',
      'payload.actions[0].value: expected a JSON document in this string',
    ],
    [
      'a value without a run',
      formOf(withAction({ value: '{"approved":[]}' })),
      'payload.actions[0].value.runId',
      'payload.actions[0].value.runId: missing (expected string)',
    ],
    [
      'an approved item that is no plan key',
      formOf(withAction({ value: '{"runId":"run-0001","approved":["everything"]}' })),
      'payload.actions[0].value.approved[0]',
      'payload.actions[0].value.approved[0]: must be "<action>:<target>"',
    ],
    [
      'no actions',
      formOf({ ...sample(), actions: [] }),
      'payload.actions[0]',
      'payload.actions[0]: missing (expected object)',
    ],
    [
      'a user without an id',
      formOf({ ...sample(), user: { username: 'jtorrance' } }),
      'payload.user.id',
      'payload.user.id: missing (expected string)',
    ],
  ])('rejects %s, naming the field', (_, form, field, message) => {
    const error = triggerErrorOf(() => parseBlockActions(form, EDGE));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });
});
