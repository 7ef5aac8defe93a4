import type { Mode } from '../engine/types.ts';

/**
 * Every source (Alertmanager, CloudWatch via EventBridge, an alarm's Lambda action or SNS, Slack
 * commands and buttons, schedules, the CLI) is parsed at the edge into one Trigger; nothing past
 * the edge sees a raw payload.
 */
export const TRIGGER_SOURCES = [
  'alertmanager',
  'cloudwatch',
  'slack-command',
  'slack-action',
  'schedule',
  'cli',
] as const;
export type TriggerSource = (typeof TRIGGER_SOURCES)[number];

export interface Alert {
  name: string;
  status: 'firing' | 'resolved';
  /** The source's own stable id of the alert (Alertmanager fingerprint; alarm ARN for CloudWatch). */
  fingerprint: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt?: string;
}

export interface Actor {
  kind: 'user' | 'system';
  /** Slack user id, `alertmanager` (also AMP), `grafana`, `cloudwatch`, `schedule:<name>`. */
  id: string;
  name?: string;
}

export interface ReplyTo {
  channel?: string;
  threadTs?: string;
  /** Slack's response_url for the command or button. */
  responseUrl?: string;
}

export interface CloudWatchAlarm {
  name: string;
  arn?: string;
  state: 'ALARM' | 'OK' | 'INSUFFICIENT_DATA';
  /** Taken from the alarm ARN (SNS) or the event (EventBridge). */
  region: string;
  accountId?: string;
  dimensions: Record<string, string>;
}

export interface Approval {
  runId: string;
  decision: 'approve' | 'reject';
  /** `<action>:<target>` keys approved (all of the plan, or the ones picked). */
  approved: string[];
}

export interface Trigger {
  source: TriggerSource;
  /** ISO time the edge received it. */
  receivedAt: string;
  /**
   * Identifies this delivery for dedupe: the same notification delivered twice (a retry, a double
   * click, 100 copies at once) has the same key. Built from the source's own ids, never free text.
   */
  deliveryKey: string;
  cluster?: string;
  /** The alerts of an Alertmanager group or a CloudWatch alarm; empty for other sources. */
  alerts: Alert[];
  /** Alertmanager `status` of the whole notification, CloudWatch state mapped to firing/resolved. */
  status?: 'firing' | 'resolved';
  runbook?: string;
  mode?: Mode;
  params?: Record<string, unknown>;
  actor: Actor;
  reply?: ReplyTo;
  alarm?: CloudWatchAlarm;
  approval?: Approval;
  /** A follow-up run's: the run it follows, and how many notifications came while that one was queued or running. */
  followUp?: { after: string; notifications: number };
  schedule?: { name: string };
}
