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
 * A write is repeated only when the server proves it did not act and may yet: a 429 is refused
 * before the request is handled, and a request whose connection never came up was never sent. A
 * 5xx or a dropped connection may come after the write happened.
 */
export function refusedBeforeHandling(error: KubeError): boolean {
  return error.kind === 'throttled' || error.unsent;
}

/**
 * Whether a failed write provably did not happen, so it need not be counted: it never reached the
 * server, or the server refused it before acting (a 4xx: a 429, a PodDisruptionBudget's 429, a
 * 403, a 404 or 409 precondition, an invalid request). Anything else (a 5xx such as kube-apiserver's
 * 504 `Timeout: request did not complete within requested timeout`, a reset, a timeout once the
 * request was out, an error that is not the API's) may come after the write was applied.
 */
export function provenNotApplied(error: unknown): boolean {
  if (!(error instanceof KubeError)) return false;
  if (error.unsent) return true;
  // 408 is a timeout: like a 504, it may come after the write.
  return error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 408;
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
