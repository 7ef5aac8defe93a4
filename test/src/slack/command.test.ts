import { describe, expect, it } from 'vitest';
import { type CommandContext, parseSlashCommand as parse } from '../../../src/slack/command.ts';
import { CommandError } from '../../../src/slack/command-grammar.ts';
import { EDGE, fixtureForm, triggerErrorOf } from '../triggers/fixtures.ts';

const runForm = () => fixtureForm('slack-slash-command-run.txt');
const RUNBOOKS = ['unmanaged-pods', 'host-identity'];
const CONTEXT: CommandContext = { command: '/cilium', clusters: ['prod-eu', 'prod-us'], runbooks: RUNBOOKS };
const ONE_CLUSTER: CommandContext = { ...CONTEXT, clusters: ['prod-eu'] };
const parseSlashCommand = (form: unknown, edge = EDGE, context = CONTEXT) => parse(form, edge, context);

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
    for (const text of [
      'run all on prod-eu mode=auto namespace=shop',
      'run all prod-eu --apply namespace=shop',
    ]) {
      const { trigger } = parseSlashCommand({ ...runForm(), text }, EDGE);
      expect(trigger).toMatchObject({
        runbook: 'all',
        cluster: 'prod-eu',
        mode: 'auto',
        params: { namespace: 'shop' },
      });
    }
  });

  it('takes the only configured cluster when none is named', () => {
    for (const text of ['run unmanaged-pods', 'status', 'history']) {
      const { request, trigger } = parseSlashCommand({ ...runForm(), text }, EDGE, ONE_CLUSTER);
      expect(request).toMatchObject({ cluster: 'prod-eu' });
      expect(trigger.cluster).toBe('prod-eu');
    }
  });

  it('asks which cluster when several are configured and none is named, listing them', () => {
    const error = triggerErrorOf(() =>
      parseSlashCommand({ ...runForm(), text: 'run unmanaged-pods --apply' }),
    );
    expect(error).toBeInstanceOf(CommandError);
    expect(error.field).toBe('cluster');
    expect(error.message).toBe(
      'cluster: missing; 2 clusters are configured: prod-eu, prod-us. Usage: `/cilium run <runbook|all> [cluster] [--apply] [key=value...]`',
    );
  });

  it("reads history without a cluster, with several configured, as every cluster's", () => {
    const { request, trigger } = parseSlashCommand({ ...runForm(), text: 'history' });
    expect(request).toEqual({ verb: 'history', cluster: undefined });
    expect(trigger.cluster).toBeUndefined();
  });

  it.each([
    [
      'run unmanaged-pods prod-mars',
      'cluster',
      'cluster: no cluster "prod-mars"; known: prod-eu, prod-us. Usage: `/cilium run <runbook|all> [cluster] [--apply] [key=value...]`',
    ],
    [
      'run unmanaged-pod prod-eu',
      'runbook',
      'runbook: no runbook "unmanaged-pod"; known: unmanaged-pods, host-identity, all. Usage: `/cilium run <runbook|all> [cluster] [--apply] [key=value...]`',
    ],
    [
      'status prod-mars',
      'cluster',
      'cluster: no cluster "prod-mars"; known: prod-eu, prod-us. Usage: `/cilium status [cluster]`',
    ],
    [
      'brake reset prod-mars',
      'cluster',
      'cluster: no cluster "prod-mars"; known: prod-eu, prod-us. Usage: `/cilium brake reset <cluster>`',
    ],
  ])('rejects "%s", naming the %s and the valid names', (text, field, message) => {
    const error = triggerErrorOf(() => parseSlashCommand({ ...runForm(), text }));
    expect(error).toBeInstanceOf(CommandError);
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });

  it('status is every runbook as a dry run on the cluster; list and history queue nothing', () => {
    const status = parseSlashCommand({ ...runForm(), text: 'status prod-eu' }).trigger;
    expect(status).toMatchObject({ cluster: 'prod-eu', runbook: 'all', mode: 'dry-run', params: {} });
    const list = parseSlashCommand({ ...runForm(), text: 'list' });
    expect(list.request).toEqual({ verb: 'list' });
    expect(list.trigger.runbook).toBeUndefined();
    const history = parseSlashCommand({ ...runForm(), text: 'history prod-us' });
    expect(history.request).toEqual({ verb: 'history', cluster: 'prod-us' });
    expect(history.trigger.runbook).toBeUndefined();
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

  it('names the cluster of history and brake reset, with no runbook', () => {
    for (const [text, verb] of [
      ['history prod-eu', 'history'],
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
    expect(error.message).toBe(
      'text: unknown command "94070"; use help, list, run, status, history or brake reset. Usage: `/cilium help`',
    );
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
