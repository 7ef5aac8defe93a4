import type { SQSRecord } from 'aws-lambda';
import type { Logger } from '../src/engine/types.ts';
import type { Job } from '../src/queue/job.ts';
import { processMessage } from '../src/queue/process.ts';
import type { DeadLetter } from '../src/queue/types.ts';

export interface WorkerBatchDeps {
  run: (job: Job) => Promise<unknown>;
  deadLetter: (letter: DeadLetter) => Promise<void>;
  /** Deliveries before a job is dead-lettered; match the queue's redrive maxReceiveCount. */
  maxAttempts: number;
  /** Where each failed delivery is said, with its reason (the batch response carries only ids). */
  log: Pick<Logger, 'warn' | 'error'>;
}

/**
 * One SQS record: done → acknowledged; a job that failed but has attempts left → throw, so the
 * batch reports it and SQS delivers it again; dead (poison, or out of attempts) → onto the DLQ
 * with its reason, then acknowledged. Nothing is dropped silently, and nothing fails unsaid.
 */
export async function handleRecord(record: SQSRecord, deps: WorkerBatchDeps): Promise<void> {
  const attempt = Number(record.attributes.ApproximateReceiveCount || '1');
  const delivery = { messageId: record.messageId, attempt, maxAttempts: deps.maxAttempts };
  const outcome = await processMessage(record.body, attempt, deps.maxAttempts, deps.run);
  if (outcome.kind === 'retry') {
    deps.log.warn('job failed; SQS delivers it again', { ...delivery, reason: outcome.reason });
    throw new Error(outcome.reason);
  }
  if (outcome.kind === 'dead') {
    try {
      await deps.deadLetter({ body: record.body, reason: outcome.reason, attempts: attempt });
    } catch (error) {
      // Thrown on, so SQS's own redrive still moves the message to the DLQ.
      deps.log.error('job could not be dead-lettered', {
        ...delivery,
        reason: outcome.reason,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  }
}
