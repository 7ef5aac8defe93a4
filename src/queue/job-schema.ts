import * as z from 'zod';
import { TRIGGER_SOURCES } from '../triggers/types.ts';
import { firstIssue, issueLine } from '../validation/issues.ts';
import type { Job } from './job.ts';

/** A queued job as it travels (JSON); the worker checks it before running anything. */
const JobSchema = z.object({
  id: z.string().min(1),
  runbook: z.string().min(1),
  cluster: z.string().min(1),
  mode: z.enum(['dry-run', 'auto', 'approve']),
  params: z.record(z.string(), z.unknown()),
  paramsBy: z.record(z.string(), z.string()).optional(),
  trigger: z
    .object({
      source: z.enum(TRIGGER_SOURCES),
      receivedAt: z.string(),
      deliveryKey: z.string(),
      alerts: z.array(z.unknown()),
      actor: z.object({ kind: z.enum(['user', 'system']), id: z.string(), name: z.string().optional() }),
    })
    .loose(),
  dedupeKey: z.string().min(1),
  resume: z
    .object({
      runId: z.string().min(1),
      approved: z.array(z.string()),
      invocation: z.number().int().min(2).optional(),
      pair: z.boolean().optional(),
    })
    .optional(),
});

/** Parses a queue message body into a Job; throws naming the first bad field. */
export function parseJob(body: string): Job {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error('not JSON');
  }
  const parsed = JobSchema.safeParse(json);
  if (!parsed.success) throw new Error(issueLine(firstIssue(parsed.error)));
  return parsed.data as Job;
}
