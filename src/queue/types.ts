import type { Job } from './job.ts';

/** Where admitted jobs wait for a worker: SQS in AWS, in-process locally. */
export interface JobQueue {
  send(job: Job): Promise<void>;
}

/** A job that failed every attempt, kept with its reason. */
export interface DeadLetter {
  /** The raw message body (a poison message may not even be a job). */
  body: string;
  reason: string;
  attempts: number;
}
