import type { SQSRecord } from 'aws-lambda';
import type { Job } from '../src/queue/job.ts';
import { processMessage } from '../src/queue/process.ts';
import type { DeadLetter } from '../src/queue/types.ts';

export interface WorkerBatchDeps {
  run: (job: Job) => Promise<unknown>;
  deadLetter: (letter: DeadLetter) => Promise<void>;
  /** Deliveries before a job is dead-lettered; match the queue's redrive maxReceiveCount. */
  maxAttempts: number;
}

/**
 * One SQS record: done → acknowledged; a job that failed but has attempts left → throw, so the
 * batch reports it and SQS delivers it again; dead (poison, or out of attempts) → onto the DLQ
 * with its reason, then acknowledged. Nothing is dropped silently.
 */
export async function handleRecord(record: SQSRecord, deps: WorkerBatchDeps): Promise<void> {
  const attempt = Number(record.attributes.ApproximateReceiveCount || '1');
  const outcome = await processMessage(record.body, attempt, deps.maxAttempts, deps.run);
  if (outcome.kind === 'retry') throw new Error(outcome.reason);
  if (outcome.kind === 'dead')
    await deps.deadLetter({ body: record.body, reason: outcome.reason, attempts: attempt });
}
