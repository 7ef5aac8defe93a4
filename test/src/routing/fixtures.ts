import { RUNBOOKS } from '../../../runbooks/index.ts';
import { ConfigSchema, type ResponderConfig } from '../../../src/config/schema.ts';
import type { Job } from '../../../src/queue/job.ts';
import type { JobQueue } from '../../../src/queue/types.ts';
import type { RunRecord } from '../../../src/store/types.ts';
import type { Alert, Trigger } from '../../../src/triggers/types.ts';

export const RUNBOOK_IDS = RUNBOOKS.map((runbook) => runbook.id);
export const RECEIVED_AT = '2024-05-01T12:00:00.000Z';

/** Three clusters, routes for alerts and alarms, two schedules, approvers. */
export function testConfig(overrides: Record<string, unknown> = {}): ResponderConfig {
  return ConfigSchema.parse({
    clusters: [
      { name: 'prod-eu', kubeconfig: { path: '/etc/kube/prod-eu' }, channel: '#prod-eu' },
      { name: 'prod-us', kubeconfig: { path: '/etc/kube/prod-us' } },
      { name: 'sim', sim: { scenarios: ['all'] } },
    ],
    routes: [
      {
        match: { source: 'alertmanager', alertname: ['CiliumUnmanagedPods', 'CiliumEndpointMissing'] },
        runbook: 'unmanaged-pods',
        mode: 'approve',
      },
      {
        match: { alertname: 'CiliumHostMarkRuleMissing', labels: { severity: 'critical' } },
        runbook: 'host-identity',
        mode: 'auto',
      },
      { match: { alertname: 'CiliumCheckEverything' }, runbook: 'all' },
      { match: { alertname: 'CiliumUnreachableNodes' }, runbook: 'tunnel-datapath', cluster: 'prod-eu' },
      {
        match: { source: 'cloudwatch', alarmName: 'cilium-node-connectivity-down' },
        runbook: 'tunnel-datapath',
        params: { aws: { region: 'eu-west-1' } },
      },
      {
        match: { source: 'cloudwatch', dimensions: { Service: 'cilium-agent' } },
        runbook: 'host-identity',
        mode: 'approve',
      },
    ],
    schedules: [
      { name: 'nightly', expression: 'cron(0 3 * * ? *)' },
      {
        name: 'hourly-eu',
        expression: 'rate(1 hour)',
        clusters: ['prod-eu'],
        runbooks: ['cgroup-root-hooks', 'tunnel-datapath'],
        mode: 'auto',
      },
    ],
    approvers: { 'unmanaged-pods': ['U012AB3CD'], '*': ['S0614TZR7'] },
    ...overrides,
  });
}

export function alert(name: string, labels: Record<string, string> = {}, n = 0): Alert {
  return {
    name,
    status: 'firing',
    fingerprint: `${name}-${n}`.toLowerCase(),
    labels: { alertname: name, ...labels },
    annotations: { summary: `${name} #${n}` },
    startsAt: '2024-05-01T11:55:00Z',
  };
}

/** An Alertmanager notification for one group; `cluster` is the group's common `cluster` label. */
export function alertmanagerTrigger(
  alerts: Alert[],
  options: { status?: 'firing' | 'resolved'; cluster?: string; deliveryKey?: string } = {},
): Trigger {
  const status = options.status ?? 'firing';
  return {
    source: 'alertmanager',
    receivedAt: RECEIVED_AT,
    deliveryKey: options.deliveryKey ?? `alertmanager:group-1-${status}`,
    ...(options.cluster ? { cluster: options.cluster } : {}),
    alerts: alerts.map((a) => ({ ...a, status })),
    status,
    actor: { kind: 'system', id: 'alertmanager' },
  };
}

/** A CloudWatch alarm state change as the alarm parsers build it: the dimensions are the labels. */
export function alarmTrigger(
  name: string,
  dimensions: Record<string, string>,
  state: 'ALARM' | 'OK' | 'INSUFFICIENT_DATA' = 'ALARM',
): Trigger {
  const arn = `arn:aws:cloudwatch:eu-west-1:111122223333:alarm:${name}`;
  const status = state === 'ALARM' ? 'firing' : state === 'OK' ? 'resolved' : undefined;
  return {
    source: 'cloudwatch',
    receivedAt: RECEIVED_AT,
    deliveryKey: `cloudwatch:${name}-${state}`,
    alerts: status ? [{ name, status, fingerprint: arn, labels: dimensions, annotations: {} }] : [],
    status,
    actor: { kind: 'system', id: 'cloudwatch' },
    alarm: { name, arn, state, region: 'eu-west-1', accountId: '111122223333', dimensions },
  };
}

export function slackCommand(fields: Pick<Trigger, 'cluster' | 'runbook' | 'mode' | 'params'>): Trigger {
  return {
    source: 'slack-command',
    receivedAt: RECEIVED_AT,
    deliveryKey: 'slack-command:T1-trigger-1',
    alerts: [],
    ...fields,
    actor: { kind: 'user', id: 'U012AB3CD', name: 'ana' },
    reply: { channel: 'C012AB3CD', responseUrl: 'https://hooks.slack.com/commands/T1/1/x' },
  };
}

export function scheduleTrigger(
  name: string,
  narrow: Pick<Trigger, 'cluster' | 'runbook' | 'mode'> = {},
): Trigger {
  return {
    source: 'schedule',
    receivedAt: RECEIVED_AT,
    deliveryKey: `schedule:${name}-2024-05-01T03:00:00Z`,
    alerts: [],
    ...narrow,
    actor: { kind: 'system', id: `schedule:${name}` },
    schedule: { name },
  };
}

export function approvalTrigger(
  actorId: string,
  approval: NonNullable<Trigger['approval']>,
  deliveryKey = `slack-action:${actorId}-${approval.decision}`,
): Trigger {
  return {
    source: 'slack-action',
    receivedAt: RECEIVED_AT,
    deliveryKey,
    alerts: [],
    actor: { kind: 'user', id: actorId, name: actorId.toLowerCase() },
    approval,
  };
}

/** Ids job-1, job-2, … */
export function counterIds(prefix = 'job'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/** A queue that only remembers what it was sent (as JSON, as a real queue carries it). */
export function recordingQueue(): JobQueue & { sent: Job[] } {
  const sent: Job[] = [];
  return {
    sent,
    async send(job) {
      sent.push(JSON.parse(JSON.stringify(job)) as Job);
    },
  };
}

/** A clock the test moves. */
export function testClock(start = RECEIVED_AT): { now: () => Date; advanceSeconds(seconds: number): void } {
  let time = new Date(start).getTime();
  return {
    now: () => new Date(time),
    advanceSeconds(seconds) {
      time += seconds * 1000;
    },
  };
}

/** The record of a run that stopped for approval, with its plan keys. */
export function waitingRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    runId: 'run-1',
    jobId: 'job-1',
    cluster: 'prod-eu',
    runbook: 'unmanaged-pods',
    mode: 'approve',
    source: 'alertmanager',
    actor: 'alertmanager',
    reason: 'CiliumUnmanagedPods',
    params: { gracePeriodSeconds: 120 },
    status: 'done',
    verdict: 'needs-approval',
    plan: ['evict:shop/web-1', 'evict:shop/web-2', 'evict:shop/api-7'],
    actions: [],
    queuedAt: '2024-05-01T11:00:00.000Z',
    finishedAt: '2024-05-01T11:50:00.000Z',
    ...overrides,
  };
}
