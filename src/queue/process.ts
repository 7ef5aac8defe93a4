import type { Job } from './job.ts';
import { parseJob } from './job-schema.ts';

export type MessageOutcome =
  | { kind: 'done' }
  | { kind: 'retry'; reason: string }
  | { kind: 'dead'; reason: string };

/**
 * One delivery of one queue message: a message that is not a job is poison (dead at once, with
 * why); a job that throws is retried until `maxAttempts`, then dead with the last error. Shared by
 * the SQS worker and the in-process queue, so both treat failures the same way.
 */
export async function processMessage(
  body: string,
  attempt: number,
  maxAttempts: number,
  handle: (job: Job) => Promise<unknown>,
): Promise<MessageOutcome> {
  let job: Job;
  try {
    job = parseJob(body);
  } catch (error) {
    return { kind: 'dead', reason: `poison message: ${(error as Error).message}` };
  }
  try {
    await handle(job);
    return { kind: 'done' };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return attempt >= maxAttempts
      ? { kind: 'dead', reason: `failed ${attempt} times: ${reason}` }
      : { kind: 'retry', reason };
  }
}
