import { describe, expect, it } from 'vitest';
import {
  ApprovalButtonValueSchema,
  approvalButtonValue,
  BUTTON_VALUE_MAX_LENGTH,
} from '../../../src/triggers/slack-button.ts';

describe('approvalButtonValue', () => {
  it('writes the value the parser reads back', () => {
    const value = { runId: 'run-0001', approved: ['evict-pod:shop/web-1', 'restart-agent:ip-10-0-1-23'] };
    const text = approvalButtonValue(value);
    expect(text).toBe(
      '{"runId":"run-0001","approved":["evict-pod:shop/web-1","restart-agent:ip-10-0-1-23"]}',
    );
    expect(ApprovalButtonValueSchema.parse(JSON.parse(text))).toEqual(value);
  });

  it("refuses a value over Slack's limit rather than let Slack reject the message", () => {
    const approved = Array.from(
      { length: 100 },
      (_, i) => `evict-pod:shop/web-${String(i).padStart(3, '0')}`,
    );
    expect(JSON.stringify({ runId: 'run-0001', approved }).length).toBeGreaterThan(BUTTON_VALUE_MAX_LENGTH);
    expect(() => approvalButtonValue({ runId: 'run-0001', approved })).toThrow(
      /approval button value is \d+ characters, over Slack's 2000/,
    );
  });
});
