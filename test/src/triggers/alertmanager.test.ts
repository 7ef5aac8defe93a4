import { describe, expect, it } from 'vitest';
import { parseAlertmanager } from '../../../src/triggers/alertmanager.ts';
import { EDGE, fixtureJson, triggerErrorOf } from './fixtures.ts';

interface WebhookAlert {
  status: string;
  labels: Record<string, unknown>;
  fingerprint?: unknown;
  [field: string]: unknown;
}
interface Webhook {
  status: string;
  groupKey: string;
  alerts: WebhookAlert[];
  commonLabels: Record<string, string>;
  groupLabels: Record<string, string>;
  [field: string]: unknown;
}

const sample = () => fixtureJson<Webhook>('alertmanager-v4.json');

/** The sample's group grown to `count` alerts, each on its own instance. */
function groupOf(count: number): Webhook {
  const webhook = sample();
  const [alert] = webhook.alerts;
  webhook.alerts = Array.from({ length: count }, (_, i) => ({
    ...alert,
    status: 'firing',
    labels: { ...alert?.labels, instance: `https://server-${i}.example.org` },
    fingerprint: `f${String(i).padStart(15, '0')}`,
  }));
  return webhook;
}

function resolved(webhook: Webhook): Webhook {
  return {
    ...webhook,
    status: 'resolved',
    alerts: webhook.alerts.map((alert) => ({
      ...alert,
      status: 'resolved',
      endsAt: '2023-02-06T13:20:45.828Z',
    })),
  };
}

describe('parseAlertmanager', () => {
  it("turns Alertmanager's v4 sample into one firing Trigger for its cluster", () => {
    const trigger = parseAlertmanager(sample(), EDGE);
    expect(trigger).toEqual({
      source: 'alertmanager',
      receivedAt: '2024-05-01T12:00:00.000Z',
      deliveryKey: expect.stringMatching(/^alertmanager:[0-9a-f]{32}$/),
      cluster: 'prod-eu',
      alerts: [
        {
          name: 'ProbeFailure',
          status: 'firing',
          fingerprint: '1a30ba71cca2921f',
          labels: {
            alertname: 'ProbeFailure',
            cluster: 'prod-eu',
            instance: 'https://server.example.org',
            job: 'http_checks',
            monitor: 'master',
            severity: 'critical',
          },
          annotations: {
            description: 'Instance https://server.example.org has been down for over 5m. Job: http_checks',
            summary: 'BlackBox Probe Failure: https://server.example.org',
          },
          startsAt: '2023-02-06T13:08:45.828Z',
        },
      ],
      status: 'firing',
      actor: { kind: 'system', id: 'alertmanager' },
    });
  });

  it('makes a group of 30 alerts one Trigger carrying all 30', () => {
    const trigger = parseAlertmanager(groupOf(30), EDGE);
    expect(new Set(trigger.alerts.map((alert) => alert.fingerprint)).size).toBe(30);
    expect(new Set(trigger.alerts.map((alert) => alert.labels.instance)).size).toBe(30);
    expect(trigger).toMatchObject({ status: 'firing', cluster: 'prod-eu' });
  });

  it('gives 100 identical posts, received at different times, one deliveryKey', () => {
    const keys = Array.from(
      { length: 100 },
      (_, i) =>
        parseAlertmanager(sample(), { receivedAt: new Date(EDGE.receivedAt.getTime() + i * 1000) })
          .deliveryKey,
    );
    expect(new Set(keys).size).toBe(1);
  });

  it('keys a group by its alerts, not by their order', () => {
    const shuffled = groupOf(30);
    shuffled.alerts.reverse();
    expect(parseAlertmanager(shuffled, EDGE).deliveryKey).toBe(
      parseAlertmanager(groupOf(30), EDGE).deliveryKey,
    );
  });

  it('gives a changed group, another group or another status a new deliveryKey', () => {
    const key = parseAlertmanager(groupOf(30), EDGE).deliveryKey;
    const otherGroup = { ...groupOf(30), groupKey: '{}/{severity="critical"}:{alertname="NodeDown"}' };
    expect(parseAlertmanager(groupOf(31), EDGE).deliveryKey).not.toBe(key);
    expect(parseAlertmanager(otherGroup, EDGE).deliveryKey).not.toBe(key);
    expect(parseAlertmanager(resolved(groupOf(30)), EDGE).deliveryKey).not.toBe(key);
  });

  it('reports a resolved notification as resolved', () => {
    const trigger = parseAlertmanager(resolved(sample()), EDGE);
    expect(trigger.status).toBe('resolved');
    expect(trigger.alerts.map((alert) => alert.status)).toEqual(['resolved']);
  });

  it('takes the cluster from the group labels when not every label is common', () => {
    const webhook = sample();
    delete webhook.commonLabels.cluster;
    webhook.groupLabels.cluster = 'prod-us';
    expect(parseAlertmanager(webhook, EDGE).cluster).toBe('prod-us');
  });

  it('leaves the cluster to routing when the group shares none', () => {
    const webhook = sample();
    delete webhook.commonLabels.cluster;
    expect(parseAlertmanager(webhook, EDGE).cluster).toBeUndefined();
  });

  it('rejects any version but 4, naming the field', () => {
    const error = triggerErrorOf(() => parseAlertmanager({ ...sample(), version: '3' }, EDGE));
    expect(error.field).toBe('version');
    expect(error.message).toBe('version: expected "4", got "3"');
  });

  it.each([
    ['a body that is no object', () => '[]', 'payload', 'payload: expected object, got string'],
    [
      'labels of the wrong type',
      (w: Webhook) => {
        (w.alerts[0] as WebhookAlert).labels = 'alertname=ProbeFailure' as never;
      },
      'alerts[0].labels',
      'alerts[0].labels: expected object, got string',
    ],
    [
      'a label value that is no string',
      (w: Webhook) => {
        (w.alerts[0] as WebhookAlert).labels.severity = 2;
      },
      'alerts[0].labels.severity',
      'alerts[0].labels.severity: expected string, got number',
    ],
    [
      'an empty fingerprint',
      (w: Webhook) => {
        (w.alerts[0] as WebhookAlert).fingerprint = '';
      },
      'alerts[0].fingerprint',
      'alerts[0].fingerprint: must not be empty',
    ],
    [
      'a missing alertname',
      (w: Webhook) => {
        delete (w.alerts[0] as WebhookAlert).labels.alertname;
      },
      'alerts[0].labels.alertname',
      'alerts[0].labels.alertname: missing (expected string)',
    ],
    [
      'an unknown status',
      (w: Webhook) => {
        w.status = 'pending';
      },
      'status',
      'status: expected "firing" or "resolved", got "pending"',
    ],
    [
      'no alerts',
      (w: Webhook) => {
        w.alerts = [];
      },
      'alerts',
      'alerts: expected at least one alert',
    ],
    [
      'a missing groupKey',
      (w: Webhook) => {
        delete (w as Partial<Webhook>).groupKey;
      },
      'groupKey',
      'groupKey: missing (expected string)',
    ],
  ])('rejects %s, naming the field', (_, change, field, message) => {
    const webhook = sample();
    const replaced = change(webhook);
    const error = triggerErrorOf(() => parseAlertmanager(replaced ?? webhook, EDGE));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });
});
