import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import { KubeError } from './types.ts';

/** The longest Retry-After we honour: a run has a deadline, and a server may ask for minutes. */
const RETRY_AFTER_CAP_MS = 10_000;

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Whether this failure may be tried again (the call is safe to repeat and the error transient). */
  retryable: (error: KubeError) => boolean;
}

/** Reads are safe to repeat on any transient error. */
export function transientError(error: KubeError): boolean {
  return error.kind === 'throttled' || error.kind === 'unavailable';
}

/**
 * A write is repeated only when the server proves it did not act: a 429 is refused before the
 * request is handled. A 5xx or a dropped connection may come after the write happened.
 */
export function refusedBeforeHandling(error: KubeError): boolean {
  return error.kind === 'throttled';
}

/**
 * Runs `attempt`, retrying with exponential backoff the failures the policy allows. A server's
 * Retry-After (capped) is waited out before the backoff delay. Nothing is tried again once `signal`
 * aborts.
 */
export function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  return pRetry(attempt, {
    ...(signal ? { signal } : {}),
    retries: policy.retries,
    minTimeout: 200,
    maxTimeout: 3_000,
    factor: 2,
    randomize: true,
    shouldRetry: async ({ error }) => {
      if (!(error instanceof KubeError) || !policy.retryable(error)) return false;
      if (error.retryAfterSeconds) await sleep(Math.min(error.retryAfterSeconds * 1000, RETRY_AFTER_CAP_MS));
      return true;
    },
  });
}
