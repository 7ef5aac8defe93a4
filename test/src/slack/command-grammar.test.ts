import { describe, expect, it } from 'vitest';
import { parseCommandText } from '../../../src/slack/command-grammar.ts';
import { triggerErrorOf } from '../triggers/fixtures.ts';

describe('parseCommandText', () => {
  it.each([
    ['run unmanaged-pods on prod-eu', { runbook: 'unmanaged-pods', cluster: 'prod-eu' }],
    ['run unmanaged-pods prod-eu', { runbook: 'unmanaged-pods', cluster: 'prod-eu' }],
    ['  run   all   on   prod-eu  ', { runbook: 'all', cluster: 'prod-eu' }],
    ['RUN host-identity on prod-eu', { runbook: 'host-identity', cluster: 'prod-eu' }],
  ])('reads "%s" as a dry run', (text, expected) => {
    expect(parseCommandText(text)).toEqual({ verb: 'run', ...expected, mode: 'dry-run', params: {} });
  });

  it('takes the mode and key=value params', () => {
    expect(parseCommandText('run unmanaged-pods on prod-eu mode=approve namespace=shop max=5 note=')).toEqual(
      {
        verb: 'run',
        runbook: 'unmanaged-pods',
        cluster: 'prod-eu',
        mode: 'approve',
        params: { namespace: 'shop', max: '5', note: '' },
      },
    );
  });

  it.each([
    ['status prod-eu', { verb: 'status', cluster: 'prod-eu' }],
    ['brake reset prod-eu', { verb: 'brake-reset', cluster: 'prod-eu' }],
    ['help', { verb: 'help' }],
    ['', { verb: 'help' }],
    ['   ', { verb: 'help' }],
  ])('reads "%s"', (text, expected) => {
    expect(parseCommandText(text)).toEqual(expected);
  });

  const RUN = 'expected "run <runbook|all> [on] <cluster> [mode=auto|dry-run|approve] [key=value...]"';
  it.each([
    ['run', `text: missing <runbook>; ${RUN}`],
    ['run unmanaged-pods', `text: missing <cluster>; ${RUN}`],
    ['run unmanaged-pods on', `text: missing <cluster>; ${RUN}`],
    ['run unmanaged-pods on prod-eu now', `text: "now" is not key=value; ${RUN}`],
    ['run unmanaged-pods on prod-eu =x', `text: "=x" is not key=value; ${RUN}`],
    [
      'run unmanaged-pods on prod-eu mode=yolo',
      'text: mode must be one of auto, dry-run, approve, not "yolo"',
    ],
    ['run unmanaged-pods on prod-eu a=1 a=2', 'text: "a" is given twice'],
    ['status', 'text: missing <cluster>; expected "status <cluster>"'],
    ['status prod-eu prod-us', 'text: unexpected "prod-us"; expected "status <cluster>"'],
    ['brake prod-eu', 'text: missing "reset"; expected "brake reset <cluster>"'],
    ['brake reset', 'text: missing <cluster>; expected "brake reset <cluster>"'],
    ['help me', 'text: unexpected "me"; expected "help"'],
    ['94070', 'text: unknown command "94070"; use run, status, brake reset or help'],
  ])('rejects "%s", saying what is missing', (text, message) => {
    const error = triggerErrorOf(() => parseCommandText(text));
    expect(error.field).toBe('text');
    expect(error.message).toBe(message);
  });
});
