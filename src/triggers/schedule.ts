import * as z from 'zod';
import { TriggerError } from '../validation/trigger-error.ts';
import { deliveryKey } from './delivery-key.ts';
import type { EdgeFacts } from './edge.ts';
import type { Trigger } from './types.ts';
import { NonEmpty, parseWith, Timestamp } from './validate.ts';

/** What we ask of a sweep; lists narrow the config's schedule, absent ones leave it to the config. */
const SweepFields = z.object({
  clusters: z.array(NonEmpty).min(1, 'expected at least one cluster').optional(),
  runbooks: z.array(NonEmpty).min(1, 'expected at least one runbook').optional(),
  mode: z.enum(['dry-run', 'auto']).optional(),
});

/**
 * The input we give EventBridge Scheduler's Lambda target. `scheduledTime` is Scheduler's
 * `<aws.scheduler.scheduled-time>` context attribute: the same on Scheduler's own retries.
 */
export const SweepInputSchema = z.lazy(() =>
  SweepFields.extend({ schedule: NonEmpty, scheduledTime: Timestamp }),
);

/**
 * EventBridge's scheduled event. A scheduled rule sends `detail: {}` and names itself in
 * `resources`; a Scheduler or PutEvents sender may put our fields in `detail`.
 */
export const ScheduledEventSchema = z.lazy(() =>
  z.object({
    'detail-type': z.literal('Scheduled Event'),
    time: Timestamp,
    resources: z.array(z.string()),
    detail: SweepFields.extend({ schedule: NonEmpty.optional() }),
  }),
);

type SweepRequest = z.infer<typeof SweepFields> & { schedule: string; scheduledTime: string };

/** `arn:aws:events:<region>:<account>:rule/[<bus>/]<name>` or a Scheduler `schedule/<group>/<name>` ARN. */
function nameFromArn(arn: string | undefined): string | undefined {
  return /:(rule|schedule)\/(.+\/)?([^/]+)$/.exec(arn ?? '')?.[3];
}

function fromEvent(payload: unknown): SweepRequest {
  const event = parseWith(ScheduledEventSchema, payload);
  const schedule = event.detail.schedule ?? nameFromArn(event.resources[0]);
  if (!schedule) {
    throw new TriggerError('detail.schedule', 'missing, and resources[0] is no rule or schedule ARN');
  }
  return { ...event.detail, schedule, scheduledTime: event.time };
}

/**
 * A sweep: one Trigger per (cluster, runbook) the request names; a list left out stays open
 * (cluster or runbook undefined) for the config's schedule to fill. All share one deliveryKey,
 * (schedule name, scheduled time), so a redelivered event collapses into the same jobs.
 */
export function parseSchedule(payload: unknown, edge: EdgeFacts): Trigger[] {
  const isEvent = typeof payload === 'object' && payload !== null && 'detail-type' in payload;
  const request = isEvent ? fromEvent(payload) : parseWith(SweepInputSchema, payload);
  const base: Trigger = {
    source: 'schedule',
    receivedAt: edge.receivedAt.toISOString(),
    deliveryKey: deliveryKey('schedule', [request.schedule, request.scheduledTime]),
    alerts: [],
    mode: request.mode,
    actor: { kind: 'system', id: `schedule:${request.schedule}` },
    schedule: { name: request.schedule },
  };
  const clusters = request.clusters ?? [undefined];
  const runbooks = request.runbooks ?? [undefined];
  return clusters.flatMap((cluster) => runbooks.map((runbook) => ({ ...base, cluster, runbook })));
}
