import { describe, expect, it, vi } from 'vitest';
import { processMessage } from '../../../src/queue/process.ts';
import { sampleJob } from './fixtures.ts';

const BODY = JSON.stringify(sampleJob());

describe('processMessage', () => {
  it('hands a valid job to the handler and is done', async () => {
    const handle = vi.fn(async () => 'report');
    expect(await processMessage(BODY, 1, 3, handle)).toEqual({ kind: 'done' });
    expect(handle).toHaveBeenCalledWith(sampleJob());
  });

  it('asks for a retry while attempts remain, with the error', async () => {
    const handle = async () => {
      throw new Error('throttled');
    };
    expect(await processMessage(BODY, 1, 3, handle)).toEqual({ kind: 'retry', reason: 'throttled' });
    expect(await processMessage(BODY, 2, 3, handle)).toEqual({ kind: 'retry', reason: 'throttled' });
    expect(await processMessage(BODY, 3, 3, handle)).toEqual({
      kind: 'dead',
      reason: 'failed 3 times: throttled',
    });
  });

  it.each([
    ['not JSON', '{"id":', 'poison message: not JSON'],
    ['not an object', '"job"', 'poison message: (root): '],
    [
      'a job without a runbook',
      JSON.stringify({ ...sampleJob(), runbook: undefined }),
      'poison message: runbook: ',
    ],
    [
      'a job whose trigger has no actor',
      JSON.stringify({ ...sampleJob(), trigger: { ...sampleJob().trigger, actor: undefined } }),
      'poison message: trigger.actor: ',
    ],
  ])('dead-letters %s at once, naming what is wrong', async (_, body, reason) => {
    const handle = vi.fn(async () => {});
    const outcome = await processMessage(body, 1, 3, handle);
    expect(outcome.kind).toBe('dead');
    expect(outcome.kind !== 'done' && outcome.reason.startsWith(reason)).toBe(true);
    expect(handle).not.toHaveBeenCalled();
  });
});
