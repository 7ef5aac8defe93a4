import { describe, expect, it } from 'vitest';
import { alertFingerprint } from '../../../src/triggers/alert-fingerprint.ts';
import { parseAlertmanager } from '../../../src/triggers/alertmanager.ts';
import { EDGE, fixtureJson, triggerErrorOf } from './fixtures.ts';

interface WebhookAlert {
  status?: string;
  labels: Record<string, unknown>;
  fingerprint?: unknown;
  [field: string]: unknown;
}
interface Webhook {
  status: string;
  groupKey: string;
  alerts: WebhookAlert[];
  commonLabels: Record<string, string> | null;
  groupLabels: Record<string, string> | null;
  [field: string]: unknown;
}

const sample = () =>
  fixtureJson<Webhook & { commonLabels: Record<string, string>; groupLabels: Record<string, string> }>(
    'alertmanager-v4.json',
  );
/** A notification from an Alertmanager before 0.19: no fingerprints, no truncatedAlerts. */
const pre019 = () => fixtureJson<Webhook>('alertmanager-v4-pre-0.19.json');
/** A notification from a 0.21+ Alertmanager, with the fingerprint it printed. */
const fingerprinted = () => fixtureJson<Webhook>('alertmanager-v4-with-fingerprint.json');

/** The sample's group grown to `count` alerts, each on its own instance. */
function groupOf(count: number) {
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

function resolved<W extends Webhook>(webhook: W): W {
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
    const otherGroup = { ...groupOf(30), groupLabels: { alertname: 'NodeDown', severity: 'critical' } };
    expect(parseAlertmanager(groupOf(31), EDGE).deliveryKey).not.toBe(key);
    expect(parseAlertmanager(otherGroup, EDGE).deliveryKey).not.toBe(key);
    expect(parseAlertmanager(resolved(groupOf(30)), EDGE).deliveryKey).not.toBe(key);
  });

  it('keys a group by what every sender carries, not the groupKey AMP never sends: two routes, one delivery', () => {
    const otherRoute = { ...groupOf(30), groupKey: '{}/{team="net"}:{alertname="NodeDown"}' };
    expect(parseAlertmanager(otherRoute, EDGE).deliveryKey).toBe(
      parseAlertmanager(groupOf(30), EDGE).deliveryKey,
    );
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
      'an alert status of the wrong kind',
      (w: Webhook) => {
        (w.alerts[0] as WebhookAlert).status = 'pending';
      },
      'alerts[0].status',
      'alerts[0].status: expected "firing" or "resolved", got "pending"',
    ],
    [
      'annotations that are no object',
      (w: Webhook) => {
        (w.alerts[0] as WebhookAlert).annotations = 'down';
      },
      'alerts[0].annotations',
      'alerts[0].annotations: expected object, got string',
    ],
    [
      'common labels that are no object',
      (w: Webhook) => {
        w.commonLabels = ['cluster'] as never;
      },
      'commonLabels',
      'commonLabels: expected object, got array',
    ],
    [
      'a missing version',
      (w: Webhook) => {
        delete w.version;
      },
      'version',
      'version: missing (expected "4")',
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

describe('parseAlertmanager, every Alertmanager from 0.15 on', () => {
  it('takes a notification from before 0.19, with no fingerprint and no truncatedAlerts', () => {
    const webhook = pre019();
    expect(webhook.alerts.some((alert) => 'fingerprint' in alert)).toBe(false);
    expect('truncatedAlerts' in webhook).toBe(false);
    const trigger = parseAlertmanager(webhook, EDGE);
    expect(trigger).toMatchObject({ source: 'alertmanager', status: 'firing', cluster: undefined });
    expect(trigger.alerts.map((alert) => [alert.name, alert.labels.instance, alert.status])).toEqual([
      ['ICMP ping failed', '172.29.254.30', 'firing'],
      ['ICMP ping failed', '172.29.254.50', 'firing'],
      ['ICMP ping failed', '172.29.254.66', 'firing'],
    ]);
    // Each alert's fingerprint is the one Alertmanager would have sent: the hash of its labels.
    for (const alert of trigger.alerts) {
      expect(alert.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(alert.fingerprint).toBe(alertFingerprint(alert.labels));
    }
    expect(new Set(trigger.alerts.map((alert) => alert.fingerprint)).size).toBe(3);
  });

  it('derives the very fingerprint Alertmanager sends, so the deliveryKey does not depend on the version', () => {
    const sent = parseAlertmanager(fingerprinted(), EDGE);
    const old = fingerprinted();
    delete (old.alerts[0] as WebhookAlert).fingerprint;
    delete old.truncatedAlerts;
    const derived = parseAlertmanager(old, EDGE);
    expect(sent.alerts[0]?.fingerprint).toBe('fbab788ec4c1018b');
    expect(derived.alerts[0]?.fingerprint).toBe('fbab788ec4c1018b');
    expect(derived.deliveryKey).toBe(sent.deliveryKey);
  });

  it('gives the same old-style notification, posted again, the same deliveryKey', () => {
    const keys = [0, 1, 2].map(
      (i) =>
        parseAlertmanager(pre019(), { receivedAt: new Date(EDGE.receivedAt.getTime() + i * 60_000) })
          .deliveryKey,
    );
    expect(new Set(keys).size).toBe(1);
  });

  it('derives a fingerprint that does not depend on the order labels are written in', () => {
    const reordered = pre019();
    for (const alert of reordered.alerts)
      alert.labels = Object.fromEntries(Object.entries(alert.labels).reverse());
    reordered.alerts.reverse();
    expect(parseAlertmanager(reordered, EDGE).deliveryKey).toBe(
      parseAlertmanager(pre019(), EDGE).deliveryKey,
    );
  });

  it('gives an old-style group with a changed alert a new deliveryKey', () => {
    const changed = pre019();
    (changed.alerts[0] as WebhookAlert).labels.instance = '172.29.254.31';
    expect(parseAlertmanager(changed, EDGE).deliveryKey).not.toBe(
      parseAlertmanager(pre019(), EDGE).deliveryKey,
    );
  });

  it.each(['firing', 'resolved'])('gives an alert without a status the group status (%s)', (status) => {
    const webhook = { ...fingerprinted(), status };
    delete (webhook.alerts[0] as WebhookAlert).status;
    const trigger = parseAlertmanager(webhook, EDGE);
    expect(trigger.status).toBe(status);
    expect(trigger.alerts.map((alert) => alert.status)).toEqual([status]);
  });

  it('keeps an alert status that is given, even where it differs from the group', () => {
    const webhook = pre019();
    (webhook.alerts[1] as WebhookAlert).status = 'resolved';
    expect(parseAlertmanager(webhook, EDGE).alerts.map((alert) => alert.status)).toEqual([
      'firing',
      'resolved',
      'firing',
    ]);
  });

  it('reads missing or null annotations as none', () => {
    const webhook = pre019();
    delete (webhook.alerts[0] as WebhookAlert).annotations;
    (webhook.alerts[1] as WebhookAlert).annotations = null;
    const trigger = parseAlertmanager(webhook, EDGE);
    expect(trigger.alerts.map((alert) => alert.annotations)).toEqual([
      {},
      {},
      { description: '172.29.254.66 does not reply to ICMP pings' },
    ]);
  });

  it('takes a notification without group or common labels, leaving the cluster to routing', () => {
    const missing = sample() as Webhook;
    delete (missing as Partial<Webhook>).groupLabels;
    delete (missing as Partial<Webhook>).commonLabels;
    const nulls = { ...sample(), groupLabels: null, commonLabels: null };
    for (const webhook of [missing, nulls]) {
      const trigger = parseAlertmanager(webhook, EDGE);
      expect(trigger.cluster).toBeUndefined();
      expect(trigger.alerts[0]?.labels.cluster).toBe('prod-eu');
    }
  });

  it('ignores fields it does not use or does not know', () => {
    const webhook = { ...fingerprinted(), commonAnnotations: null, numFiring: 0, future: { anything: true } };
    (webhook.alerts[0] as WebhookAlert).silencedBy = [];
    expect(parseAlertmanager(webhook, EDGE).deliveryKey).toBe(
      parseAlertmanager(fingerprinted(), EDGE).deliveryKey,
    );
  });
});
