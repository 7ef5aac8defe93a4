import { describe, expect, it } from 'vitest';
import { approvalValue, parseApprovalValue } from '../../../src/slack/approval-value.ts';

describe('approval value', () => {
  it('round-trips the run id and the approved keys', () => {
    const text = approvalValue('run-42', [
      'evict-pod:shop/web-1',
      'restart-agent:ip-10-0-1-23.eu-west-1.compute.internal',
    ]);
    expect(parseApprovalValue(text)).toEqual({
      ok: true,
      value: {
        runId: 'run-42',
        approved: ['evict-pod:shop/web-1', 'restart-agent:ip-10-0-1-23.eu-west-1.compute.internal'],
      },
    });
  });

  it('names what is wrong', () => {
    expect(parseApprovalValue('{')).toEqual({ ok: false, reason: 'approval value is not JSON' });
    const cases: Array<[string, RegExp]> = [
      ['[]', /^approval value: value: /],
      ['{"approved":["evict-pod:a/b"]}', /^approval value: runId: /],
      ['{"runId":"","approved":["evict-pod:a/b"]}', /^approval value: runId: /],
      ['{"runId":"r","approved":[]}', /^approval value: approved: /],
      [
        '{"runId":"r","approved":["evict-pod"]}',
        /^approval value: approved\[0\]: must be "<action>:<target>"$/,
      ],
      ['{"runId":"r","approved":["evict-pod:a/b",":a/b"]}', /^approval value: approved\[1\]: /],
      ['{"runId":"r","approved":["evict-pod:a/b"],"extra":1}', /^approval value: /],
    ];
    for (const [text, reason] of cases) {
      const parsed = parseApprovalValue(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.reason, text).toMatch(reason);
    }
  });
});
