import { describe, expect, it } from 'vitest';
import { parseSlashCommand } from '../../../src/slack/command.ts';
import { EDGE, fixtureForm, triggerErrorOf } from '../triggers/fixtures.ts';

const runForm = () => fixtureForm('slack-slash-command-run.txt');

describe('parseSlashCommand', () => {
  it("turns Slack's documented request, asking for a run, into a dry-run Trigger replying to the channel", () => {
    expect(parseSlashCommand(runForm(), EDGE)).toEqual({
      request: { verb: 'run', runbook: 'unmanaged-pods', cluster: 'prod-eu', mode: 'dry-run', params: {} },
      trigger: {
        source: 'slack-command',
        receivedAt: '2024-05-01T12:00:00.000Z',
        deliveryKey: expect.stringMatching(/^slack-command:[0-9a-f]{32}$/),
        alerts: [],
        cluster: 'prod-eu',
        runbook: 'unmanaged-pods',
        mode: 'dry-run',
        params: {},
        actor: { kind: 'user', id: 'U2147483697', name: 'Steve' },
        reply: { channel: 'C2147483705', responseUrl: 'https://hooks.slack.com/commands/1234/5678' },
      },
    });
  });

  it('carries the mode and params a person asked for', () => {
    const form = { ...runForm(), text: 'run all on prod-eu mode=auto namespace=shop' };
    const { trigger } = parseSlashCommand(form, EDGE);
    expect(trigger).toMatchObject({
      runbook: 'all',
      cluster: 'prod-eu',
      mode: 'auto',
      params: { namespace: 'shop' },
    });
  });

  it("reads the signing example's empty text as help", () => {
    const { request, trigger } = parseSlashCommand(
      fixtureForm('slack-slash-command-signing-example.txt'),
      EDGE,
    );
    expect(request).toEqual({ verb: 'help' });
    expect(trigger).toMatchObject({
      actor: { kind: 'user', id: 'U2CERLKJA', name: 'roadrunner' },
      reply: {
        channel: 'G8PSS9T3V',
        responseUrl: 'https://hooks.slack.com/commands/T1DC2JH3J/397700885554/96rGlfmibIGlgcZRskXaIFfN',
      },
    });
    expect(trigger.runbook).toBeUndefined();
  });

  it('names the cluster of status and brake reset, with no runbook', () => {
    for (const [text, verb] of [
      ['status prod-eu', 'status'],
      ['brake reset prod-eu', 'brake-reset'],
    ]) {
      const { request, trigger } = parseSlashCommand({ ...runForm(), text }, EDGE);
      expect(request.verb).toBe(verb);
      expect(trigger.cluster).toBe('prod-eu');
      expect(trigger.runbook).toBeUndefined();
    }
  });

  it('keeps the deliveryKey of a retried request and changes it for a new invocation', () => {
    const key = parseSlashCommand(runForm(), EDGE).trigger.deliveryKey;
    const retry = parseSlashCommand(runForm(), { receivedAt: new Date('2024-05-01T12:00:03Z') });
    expect(retry.trigger.deliveryKey).toBe(key);
    const again = { ...runForm(), trigger_id: '13345224609.738474920.ffffffffffffffffffff' };
    expect(parseSlashCommand(again, EDGE).trigger.deliveryKey).not.toBe(key);
  });

  it("rejects the documented /weather example's text, naming the field", () => {
    const error = triggerErrorOf(() => parseSlashCommand(fixtureForm('slack-slash-command-docs.txt'), EDGE));
    expect(error.message).toBe('text: unknown command "94070"; use run, status, brake reset or help');
  });

  it.each([
    ['a missing trigger_id', 'trigger_id', undefined, 'trigger_id: missing (expected string)'],
    ['an empty user_id', 'user_id', '', 'user_id: must not be empty'],
    ['a missing text', 'text', undefined, 'text: missing (expected string)'],
    [
      'a response_url that is no https URL',
      'response_url',
      'http://hooks.slack.com/x',
      'response_url: expected an https URL',
    ],
  ])('rejects %s, naming the field', (_, field, value, message) => {
    const form: Record<string, string | undefined> = { ...runForm(), [field]: value };
    if (value === undefined) delete form[field];
    const error = triggerErrorOf(() => parseSlashCommand(form, EDGE));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });
});
