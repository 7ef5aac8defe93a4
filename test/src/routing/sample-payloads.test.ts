import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.ts';
import { routeTrigger } from '../../../src/routing/route.ts';
import { parseSlashCommand } from '../../../src/slack/index.ts';
import { parseAlarmEvent, parseAlertmanager, parseSchedule } from '../../../src/triggers/index.ts';
import type { Trigger } from '../../../src/triggers/types.ts';
import { EDGE, fixtureForm, fixtureJson } from '../triggers/fixtures.ts';
import { counterIds, RUNBOOK_IDS } from './fixtures.ts';

/** Each source's real sample payload, parsed at the edge and routed by a config, becomes the expected jobs. */
const config = parseConfig(`
clusters:
  - name: prod-eu
    sim: { scenarios: [healthy] }
routes:
  - match: { source: alertmanager, alertname: ProbeFailure }
    runbook: tunnel-datapath
    mode: auto
  - match: { source: cloudwatch, alarmName: ServerCpuTooHigh }
    cluster: prod-eu
    runbook: host-identity
  - match: { source: cloudwatch, alarmName: lambda-demo-metric-alarm }
    cluster: prod-eu
    runbook: unmanaged-pods
  - match: { source: cloudwatch, alarmName: EXAMPLE, dimensions: { InstanceId: TestInstance } }
    cluster: prod-eu
    runbook: cgroup-root-hooks
schedules:
  - name: my-scheduled-rule
    expression: rate(1 day)
    runbooks: [unmanaged-pods]
`);

function jobsOf(triggers: Trigger[]) {
  return triggers.flatMap((trigger) =>
    routeTrigger(trigger, { config, runbooks: RUNBOOK_IDS, newId: counterIds() }).jobs.map((job) => ({
      cluster: job.cluster,
      runbook: job.runbook,
      mode: job.mode,
      source: job.trigger.source,
    })),
  );
}

describe('real sample payloads become the expected jobs', () => {
  it('Alertmanager v4 webhook', () => {
    expect(jobsOf([parseAlertmanager(fixtureJson('alertmanager-v4.json'), EDGE)])).toEqual([
      { cluster: 'prod-eu', runbook: 'tunnel-datapath', mode: 'auto', source: 'alertmanager' },
    ]);
  });

  it('CloudWatch alarm via EventBridge', () => {
    expect(jobsOf(parseAlarmEvent(fixtureJson('cloudwatch-eventbridge-single-metric.json'), EDGE))).toEqual([
      { cluster: 'prod-eu', runbook: 'host-identity', mode: 'dry-run', source: 'cloudwatch' },
    ]);
  });

  it("CloudWatch alarm via the alarm's Lambda action", () => {
    expect(jobsOf(parseAlarmEvent(fixtureJson('cloudwatch-lambda-action-single-metric.json'), EDGE))).toEqual(
      [{ cluster: 'prod-eu', runbook: 'unmanaged-pods', mode: 'dry-run', source: 'cloudwatch' }],
    );
  });

  it('Alertmanager before 0.19 (no fingerprints): one job per cluster the alerts name', () => {
    const webhook = fixtureJson<{ alerts: { labels: Record<string, string> }[] }>(
      'alertmanager-v4-pre-0.19.json',
    );
    for (const alert of webhook.alerts) {
      alert.labels.alertname = 'ProbeFailure';
      alert.labels.cluster = 'prod-eu';
    }
    expect(jobsOf([parseAlertmanager(webhook, EDGE)])).toEqual([
      { cluster: 'prod-eu', runbook: 'tunnel-datapath', mode: 'auto', source: 'alertmanager' },
    ]);
  });

  it('CloudWatch alarm via SNS (the Lambda event)', () => {
    expect(jobsOf(parseAlarmEvent(fixtureJson('cloudwatch-sns-lambda-single-metric.json'), EDGE))).toEqual([
      { cluster: 'prod-eu', runbook: 'cgroup-root-hooks', mode: 'dry-run', source: 'cloudwatch' },
    ]);
  });

  it('Slack slash command: a dry run unless a person asks for more', () => {
    const command = parseSlashCommand(fixtureForm('slack-slash-command-run.txt'), EDGE, {
      command: config.slack.command,
      clusters: config.clusters.map((c) => c.name),
      runbooks: RUNBOOK_IDS,
    });
    expect(jobsOf([command.trigger])).toEqual([
      { cluster: 'prod-eu', runbook: 'unmanaged-pods', mode: 'dry-run', source: 'slack-command' },
    ]);
  });

  it('EventBridge scheduled event: the sweep of its schedule', () => {
    expect(jobsOf(parseSchedule(fixtureJson('eventbridge-scheduled-event.json'), EDGE))).toEqual([
      { cluster: 'prod-eu', runbook: 'unmanaged-pods', mode: 'dry-run', source: 'schedule' },
    ]);
  });
});
