import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../../../src/triggers/schedule.ts';
import { EDGE, fixtureJson, triggerErrorOf } from './fixtures.ts';

const scheduledEvent = () => fixtureJson<Record<string, unknown>>('eventbridge-scheduled-event.json');
const SWEEP = { schedule: 'nightly-sweep', scheduledTime: '2024-05-01T03:00:00Z' };

describe('parseSchedule', () => {
  it("turns EventBridge's scheduled event into one Trigger named after its rule", () => {
    expect(parseSchedule(scheduledEvent(), EDGE)).toEqual([
      {
        source: 'schedule',
        receivedAt: '2024-05-01T12:00:00.000Z',
        deliveryKey: expect.stringMatching(/^schedule:[0-9a-f]{32}$/),
        alerts: [],
        actor: { kind: 'system', id: 'schedule:my-scheduled-rule' },
        schedule: { name: 'my-scheduled-rule' },
      },
    ]);
  });

  it('reads our fields from the detail of a scheduled event', () => {
    const event = {
      ...scheduledEvent(),
      detail: { schedule: 'nightly-sweep', runbooks: ['tunnel-datapath'], mode: 'auto' },
    };
    const [trigger] = parseSchedule(event, EDGE);
    expect(trigger).toMatchObject({
      schedule: { name: 'nightly-sweep' },
      actor: { kind: 'system', id: 'schedule:nightly-sweep' },
      runbook: 'tunnel-datapath',
      mode: 'auto',
    });
    expect(trigger?.cluster).toBeUndefined();
  });

  it('names a schedule after an EventBridge Scheduler ARN', () => {
    const event = {
      ...scheduledEvent(),
      resources: ['arn:aws:scheduler:eu-west-1:123456789012:schedule/default/weekly'],
    };
    expect(parseSchedule(event, EDGE)[0]?.schedule).toEqual({ name: 'weekly' });
  });

  it("reads Scheduler's direct input, one Trigger per named (cluster, runbook)", () => {
    const triggers = parseSchedule(
      {
        ...SWEEP,
        clusters: ['prod-eu', 'prod-us'],
        runbooks: ['unmanaged-pods', 'host-identity'],
        mode: 'dry-run',
      },
      EDGE,
    );
    expect(triggers.map((t) => [t.cluster, t.runbook])).toEqual([
      ['prod-eu', 'unmanaged-pods'],
      ['prod-eu', 'host-identity'],
      ['prod-us', 'unmanaged-pods'],
      ['prod-us', 'host-identity'],
    ]);
    expect(new Set(triggers.map((t) => t.deliveryKey)).size).toBe(1);
    expect(triggers.every((t) => t.mode === 'dry-run' && t.schedule?.name === 'nightly-sweep')).toBe(true);
  });

  it('keys a sweep by schedule and scheduled time, not by when it arrived', () => {
    const [first] = parseSchedule(SWEEP, EDGE);
    const [redelivered] = parseSchedule(
      { ...SWEEP, scheduledTime: '2024-05-01T03:00:00.000+0000' },
      { receivedAt: new Date() },
    );
    expect(redelivered?.deliveryKey).toBe(first?.deliveryKey);
    const [nextNight] = parseSchedule({ ...SWEEP, scheduledTime: '2024-05-02T03:00:00Z' }, EDGE);
    expect(nextNight?.deliveryKey).not.toBe(first?.deliveryKey);
    const [other] = parseSchedule({ ...SWEEP, schedule: 'weekly' }, EDGE);
    expect(other?.deliveryKey).not.toBe(first?.deliveryKey);
  });

  it.each([
    [
      'a missing schedule',
      { scheduledTime: SWEEP.scheduledTime },
      'schedule',
      'schedule: missing (expected string)',
    ],
    [
      'a missing scheduled time',
      { schedule: 'nightly-sweep' },
      'scheduledTime',
      'scheduledTime: missing (expected string)',
    ],
    [
      'approve mode',
      { ...SWEEP, mode: 'approve' },
      'mode',
      'mode: expected "dry-run" or "auto", got "approve"',
    ],
    [
      'an empty cluster list',
      { ...SWEEP, clusters: [] },
      'clusters',
      'clusters: expected at least one cluster',
    ],
    [
      'a runbook that is no string',
      { ...SWEEP, runbooks: [3] },
      'runbooks[0]',
      'runbooks[0]: expected string, got number',
    ],
    [
      'a scheduled event without a name',
      { ...scheduledEvent(), resources: [] },
      'detail.schedule',
      'detail.schedule: missing, and resources[0] is no rule or schedule ARN',
    ],
    [
      'a scheduled event without a time',
      { ...scheduledEvent(), time: undefined },
      'time',
      'time: missing (expected string)',
    ],
  ])('rejects %s, naming the field', (_, payload, field, message) => {
    const error = triggerErrorOf(() => parseSchedule(payload, EDGE));
    expect(error.field).toBe(field);
    expect(error.message).toBe(message);
  });
});
