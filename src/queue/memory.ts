import { setTimeout as sleep } from 'node:timers/promises';
import type { Job } from './job.ts';
import { processMessage } from './process.ts';
import type { DeadLetter, JobQueue } from './types.ts';

export interface MemoryQueueOptions {
  handle: (job: Job) => Promise<unknown>;
  /** Deliveries before a job is dead-lettered (like SQS maxReceiveCount). Default 3. */
  maxAttempts?: number;
  /** Told of each dead letter (the worker records and reports it). */
  onDead?: (letter: DeadLetter) => Promise<void>;
  retryDelayMs?: number;
}

export interface MemoryQueue extends JobQueue {
  readonly deadLetters: DeadLetter[];
  /** Resolves when every job sent so far has finished (or died). */
  idle(): Promise<void>;
}

/**
 * The local stand-in for SQS: `send` returns at once and the job runs after, so a caller's answer
 * never waits for the cluster. Messages travel as JSON, as they would through SQS.
 */
export function memoryQueue(options: MemoryQueueOptions): MemoryQueue {
  const maxAttempts = options.maxAttempts ?? 3;
  const deadLetters: DeadLetter[] = [];
  const running = new Set<Promise<void>>();

  async function deliver(body: string): Promise<void> {
    await sleep(0);
    for (let attempt = 1; ; attempt++) {
      const outcome = await processMessage(body, attempt, maxAttempts, options.handle);
      if (outcome.kind === 'done') return;
      if (outcome.kind === 'dead') {
        const letter = { body, reason: outcome.reason, attempts: attempt };
        deadLetters.push(letter);
        await options.onDead?.(letter);
        return;
      }
      await sleep(options.retryDelayMs ?? 100);
    }
  }

  return {
    deadLetters,
    async send(job) {
      const delivery = deliver(JSON.stringify(job));
      running.add(delivery);
      void delivery.finally(() => running.delete(delivery));
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
