import { describe, expect, it } from 'vitest';
import { CommandError, parseCommandText } from '../../../src/slack/command-grammar.ts';
import { triggerErrorOf } from '../triggers/fixtures.ts';

describe('parseCommandText', () => {
  it.each([
    ['run unmanaged-pods on prod-eu', { runbook: 'unmanaged-pods', cluster: 'prod-eu' }],
    ['run unmanaged-pods prod-eu', { runbook: 'unmanaged-pods', cluster: 'prod-eu' }],
    ['  run   all   on   prod-eu  ', { runbook: 'all', cluster: 'prod-eu' }],
    ['RUN host-identity on prod-eu', { runbook: 'host-identity', cluster: 'prod-eu' }],
    ['run host-identity', { runbook: 'host-identity', cluster: undefined }],
  ])('reads "%s" as a dry run', (text, expected) => {
    expect(parseCommandText(text)).toEqual({ verb: 'run', ...expected, mode: 'dry-run', params: {} });
  });

  it.each([
    ['run unmanaged-pods prod-eu --apply', 'prod-eu'],
    ['run unmanaged-pods --apply prod-eu', 'prod-eu'],
    ['run unmanaged-pods --apply', undefined],
    ['run unmanaged-pods prod-eu mode=auto', 'prod-eu'],
    ['run unmanaged-pods prod-eu --apply mode=auto', 'prod-eu'],
  ])('reads "%s" as a run that acts (--apply, or its alias mode=auto)', (text, cluster) => {
    expect(parseCommandText(text)).toEqual({
      verb: 'run',
      runbook: 'unmanaged-pods',
      cluster,
      mode: 'auto',
      params: {},
    });
  });

  it('takes the mode and key=value params, in any order with the cluster', () => {
    expect(parseCommandText('run unmanaged-pods mode=approve namespace=shop prod-eu max=5 note=')).toEqual({
      verb: 'run',
      runbook: 'unmanaged-pods',
      cluster: 'prod-eu',
      mode: 'approve',
      params: { namespace: 'shop', max: '5', note: '' },
    });
  });

  it.each([
    ['status prod-eu', { verb: 'status', cluster: 'prod-eu' }],
    ['status', { verb: 'status', cluster: undefined }],
    ['history prod-eu', { verb: 'history', cluster: 'prod-eu' }],
    ['history', { verb: 'history', cluster: undefined }],
    ['list', { verb: 'list' }],
    ['LIST', { verb: 'list' }],
    ['brake reset prod-eu', { verb: 'brake-reset', cluster: 'prod-eu' }],
    ['help', { verb: 'help' }],
    ['', { verb: 'help' }],
    ['   ', { verb: 'help' }],
  ])('reads "%s"', (text, expected) => {
    expect(parseCommandText(text)).toEqual(expected);
  });

  const RUN = 'Usage: `/cilium run <runbook|all> [cluster] [--apply] [key=value...]`';
  it.each([
    ['run', 'runbook', `runbook: missing <runbook> (a runbook id, or all). ${RUN}`],
    ['run --apply', 'runbook', `runbook: missing <runbook> (a runbook id, or all). ${RUN}`],
    ['run unmanaged-pods on', 'cluster', `cluster: missing <cluster> after "on". ${RUN}`],
    ['run unmanaged-pods on --apply', 'cluster', `cluster: missing <cluster> after "on". ${RUN}`],
    [
      'run unmanaged-pods prod-eu now',
      'cluster',
      `cluster: one cluster only, not "prod-eu" and "now". ${RUN}`,
    ],
    ['run unmanaged-pods on prod-eu =x', 'text', `text: "=x" is not key=value. ${RUN}`],
    [
      'run unmanaged-pods prod-eu --force',
      'text',
      `text: unknown option "--force"; the only option is --apply. ${RUN}`,
    ],
    ['run unmanaged-pods prod-eu --apply --apply', '--apply', `--apply: "--apply" is given twice. ${RUN}`],
    [
      'run unmanaged-pods on prod-eu mode=yolo',
      'mode',
      `mode: mode must be one of auto, dry-run, approve, not "yolo". ${RUN}`,
    ],
    [
      'run unmanaged-pods prod-eu --apply mode=dry-run',
      'mode',
      `mode: --apply contradicts mode=dry-run. ${RUN}`,
    ],
    ['run unmanaged-pods prod-eu mode=auto mode=auto', 'mode', `mode: mode is given twice. ${RUN}`],
    ['run unmanaged-pods on prod-eu a=1 a=2', 'a', `a: "a" is given twice. ${RUN}`],
    ['status prod-eu prod-us', 'text', 'text: unexpected "prod-us". Usage: `/cilium status [cluster]`'],
    ['history a b', 'text', 'text: unexpected "b". Usage: `/cilium history [cluster]`'],
    ['list all', 'text', 'text: unexpected "all". Usage: `/cilium list`'],
    ['brake prod-eu', 'text', 'text: missing "reset". Usage: `/cilium brake reset <cluster>`'],
    ['brake reset', 'cluster', 'cluster: missing <cluster>. Usage: `/cilium brake reset <cluster>`'],
    ['help me', 'text', 'text: unexpected "me". Usage: `/cilium help`'],
    [
      '94070',
      'text',
      'text: unknown command "94070"; use help, list, run, status, history or brake reset. Usage: `/cilium help`',
    ],
  ])('rejects "%s", naming the field (%s) and the usage', (text, field, message) => {
    const error = triggerErrorOf(() => parseCommandText(text));
    expect(error).toBeInstanceOf(CommandError);
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });

  it('names the configured command in the usage', () => {
    const error = triggerErrorOf(() => parseCommandText('run', '/responder'));
    expect(error.message).toMatch(/Usage: `\/responder run <runbook\|all> \[cluster\]/);
  });
});
