import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import type { Job } from '../../../src/queue/job.ts';
import { memoryQueue } from '../../../src/queue/memory.ts';
import { gate, sampleJob } from './fixtures.ts';

describe('memoryQueue', () => {
  it('returns from send before the job runs, and runs it after', async () => {
    const hold = gate();
    const events: string[] = [];
    const queue = memoryQueue({
      handle: async (job) => {
        events.push(`start ${job.id}`);
        await hold.promise; // a cluster that does not answer
        events.push(`end ${job.id}`);
      },
    });

    const sent = await Promise.race([
      queue.send(sampleJob()).then(() => 'returned'),
      sleep(1000).then(() => 'still waiting'),
    ]);
    expect(sent).toBe('returned');
    events.push('answered');

    await vi.waitFor(() => expect(events).toContain('start job-1'));
    expect(events).toEqual(['answered', 'start job-1']);

    let idle = false;
    const idled = queue.idle().then(() => {
      idle = true;
    });
    await sleep(50);
    expect(idle).toBe(false);

    hold.open();
    await idled;
    expect(events).toEqual(['answered', 'start job-1', 'end job-1']);
    expect(queue.deadLetters).toEqual([]);
  });

  it('hands the worker the job as it travelled: JSON, not the sender’s object', async () => {
    const received: Job[] = [];
    const queue = memoryQueue({ handle: async (job) => received.push(job) });
    const job = sampleJob();
    await queue.send(job);
    job.params.namespaces = ['changed-after-send'];
    await queue.idle();
    expect(received).toEqual([sampleJob()]);
    expect(received[0]).not.toBe(job);
  });

  it('retries a job that throws, and it is done when an attempt succeeds', async () => {
    let attempts = 0;
    const times: number[] = [];
    const queue = memoryQueue({
      retryDelayMs: 30,
      handle: async () => {
        times.push(performance.now());
        attempts++;
        if (attempts <= 2) throw new Error(`cluster unavailable (${attempts})`);
      },
    });
    await queue.send(sampleJob());
    await queue.idle();
    expect(attempts).toBe(3);
    expect(queue.deadLetters).toEqual([]);
    // Retries wait the retry delay.
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(25);
  });

  it('dead-letters a job that always throws after maxAttempts, with its reason', async () => {
    const handle = vi.fn(async () => {
      throw new Error('cluster unreachable');
    });
    const queue = memoryQueue({ handle, maxAttempts: 4, retryDelayMs: 1 });
    const job = sampleJob();
    await queue.send(job);
    await queue.idle();
    expect(handle).toHaveBeenCalledTimes(4);
    expect(queue.deadLetters).toEqual([
      { body: JSON.stringify(job), reason: 'failed 4 times: cluster unreachable', attempts: 4 },
    ]);
  });

  it('tries three times by default, and keeps a reason for things thrown that are not Errors', async () => {
    const handle = vi.fn(async () => {
      throw 'lease lost';
    });
    const queue = memoryQueue({ handle, retryDelayMs: 1 });
    await queue.send(sampleJob());
    await queue.idle();
    expect(handle).toHaveBeenCalledTimes(3);
    expect(queue.deadLetters.map((letter) => [letter.reason, letter.attempts])).toEqual([
      ['failed 3 times: lease lost', 3],
    ]);
  });

  it('dead-letters a poison message at once, never handing it to the worker', async () => {
    const handle = vi.fn(async () => {});
    const queue = memoryQueue({ handle, retryDelayMs: 1 });
    const poison = { ...sampleJob(), mode: 'yolo' } as unknown as Job;
    await queue.send(poison);
    await queue.idle();
    expect(handle).not.toHaveBeenCalled();
    expect(queue.deadLetters).toHaveLength(1);
    expect(queue.deadLetters[0]).toMatchObject({ body: JSON.stringify(poison), attempts: 1 });
    expect(queue.deadLetters[0]?.reason).toMatch(/^poison message: mode: /);
  });

  it('keeps the good jobs going when one dies', async () => {
    const done: string[] = [];
    const queue = memoryQueue({
      retryDelayMs: 1,
      handle: async (job) => {
        if (job.id === 'job-bad') throw new Error('boom');
        done.push(job.id);
      },
    });
    await Promise.all(['job-1', 'job-bad', 'job-2'].map((id) => queue.send(sampleJob(id))));
    await queue.idle();
    expect(done.sort()).toEqual(['job-1', 'job-2']);
    expect(queue.deadLetters.map((letter) => JSON.parse(letter.body).id)).toEqual(['job-bad']);
  });

  describe('idle', () => {
    it('resolves at once when nothing was sent', async () => {
      const queue = memoryQueue({ handle: async () => {} });
      await expect(Promise.race([queue.idle().then(() => 'idle'), sleep(500)])).resolves.toBe('idle');
    });

    it('waits for every job, including jobs sent while it waits', async () => {
      const done: string[] = [];
      const queue = memoryQueue({
        handle: async (job) => {
          await sleep(20);
          if (job.id === 'job-1') await queue.send(sampleJob('job-2'));
          done.push(job.id);
        },
      });
      await queue.send(sampleJob('job-1'));
      await queue.idle();
      expect(done).toEqual(['job-1', 'job-2']);
    });

    it('waits for retries, not only the first attempt', async () => {
      let attempts = 0;
      const queue = memoryQueue({
        retryDelayMs: 20,
        handle: async () => {
          attempts++;
          throw new Error('down');
        },
      });
      await queue.send(sampleJob());
      await queue.idle();
      expect(attempts).toBe(3);
      expect(queue.deadLetters).toHaveLength(1);
    });
  });
});
