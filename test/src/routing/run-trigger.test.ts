import { describe, expect, it } from 'vitest';
import { KEPT_ALERTS, KEPT_VALUE_CHARS, runTrigger } from '../../../src/routing/run-trigger.ts';
import type { Alert, Trigger } from '../../../src/triggers/types.ts';

const alert = (i: number, annotation = `alert ${i}`): Alert => ({
  name: 'CiliumUnmanagedPods',
  status: 'firing',
  fingerprint: `f${i}`,
  labels: { alertname: 'CiliumUnmanagedPods', pod: `web-${i}` },
  annotations: { summary: annotation },
});

function trigger(alerts: Alert[], extra: Partial<Trigger> = {}): Trigger {
  return {
    source: 'alertmanager',
    receivedAt: '2026-11-21T10:00:00.000Z',
    deliveryKey: 'alertmanager:k',
    alerts,
    actor: { kind: 'system', id: 'alertmanager' },
    ...extra,
  };
}

describe("a run's trigger, as its record keeps it", () => {
  it('keeps the first alerts of a large group with their labels and annotations, and counts them all', () => {
    const kept = runTrigger(trigger(Array.from({ length: 1_200 }, (_, i) => alert(i))));
    expect(kept.alertCount).toBe(1_200);
    expect(kept.alerts).toHaveLength(KEPT_ALERTS);
    expect(kept.alerts[19]).toEqual(alert(19));
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThan(20_000);
  });

  it('cuts a label or annotation longer than it keeps, and says so', () => {
    const long = 'x'.repeat(KEPT_VALUE_CHARS + 1);
    const [kept] = runTrigger(trigger([alert(1, long)])).alerts;
    expect(kept?.annotations.summary).toBe(`${'x'.repeat(KEPT_VALUE_CHARS)}… (cut)`);
    const [whole] = runTrigger(trigger([alert(1, long.slice(1))])).alerts;
    expect(whole?.annotations.summary).toBe(long.slice(1));
  });

  it('keeps the alarm, the schedule and who asked', () => {
    const alarm = {
      name: 'agent-down',
      state: 'ALARM' as const,
      region: 'eu-west-1',
      dimensions: { ClusterName: 'prod' },
    };
    const kept = runTrigger(
      trigger([], { alarm, schedule: { name: 'nightly' }, actor: { kind: 'user', id: 'U1', name: 'ana' } }),
    );
    expect(kept).toEqual({
      receivedAt: '2026-11-21T10:00:00.000Z',
      actor: { kind: 'user', id: 'U1', name: 'ana' },
      alerts: [],
      alertCount: 0,
      alarm,
      schedule: { name: 'nightly' },
    });
  });
});
