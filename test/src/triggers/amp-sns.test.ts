import { describe, expect, it } from 'vitest';
import { parseAlarmEvent } from '../../../src/triggers/alarm-event.ts';
import { parseAlertmanager } from '../../../src/triggers/alertmanager.ts';
import { parseSnsNotification } from '../../../src/triggers/sns.ts';
import { AMP_CAPTURES, type AmpCaptureEntry, ampCapture, EDGE, triggerErrorOf } from './fixtures.ts';

interface LambdaSnsEvent {
  Records: { Sns: { Message: string; MessageAttributes: Record<string, { Type: string; Value: string }> } }[];
}

const captureOf = (via: AmpCaptureEntry['via'], scenario: string, status: string) => {
  const entry = AMP_CAPTURES.find((c) => c.via === via && c.scenario === scenario && c.status === status);
  if (!entry) throw new Error(`no ${via} capture of ${scenario} ${status}`);
  return ampCapture<LambdaSnsEvent>(entry.file);
};
const webhookTrigger = (scenario: string, status: string) =>
  parseAlertmanager(captureOf('webhook', scenario, status), EDGE);

const TEXT_REFUSAL =
  /Alertmanager's default text: set AWS's JSON template \(sns\.default\.message\).*docs\/alert-sources\.md/;
const TRUNCATED = /cut at SNS's 256 KB limit.*group_by/;

describe('Amazon Managed Prometheus alerts on SNS (captured from Alertmanager 0.25)', () => {
  const reads = AMP_CAPTURES.filter(
    (c) => c.via === 'sns-json' && ['single', 'grouped'].includes(c.scenario),
  );

  it.each(reads.map((c) => [c.file, c] as const))(
    '%s makes the same Trigger as the webhook for the same alerts',
    (_, capture) => {
      const triggers = parseAlarmEvent(ampCapture(capture.file), EDGE);
      expect(triggers).toEqual([webhookTrigger(capture.scenario, capture.status)]);
      expect(triggers[0]?.status).toBe(capture.status);
    },
  );

  it('reads firing and resolved groups, one and three alerts', () => {
    expect(reads.map((c) => `${c.scenario} ${c.status}`).sort()).toEqual([
      'grouped firing',
      'grouped resolved',
      'single firing',
      'single resolved',
    ]);
    const [grouped] = parseAlarmEvent(captureOf('sns-json', 'grouped', 'firing'), EDGE);
    expect(grouped?.alerts.map((a) => a.fingerprint)).toEqual([
      'bfa40ea06f67abe2',
      'ba015693fc2b0e55',
      '12a7149c8def2c00',
    ]);
    expect(grouped?.alerts[0]?.startsAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
  });

  it.each(['firing', 'resolved'])(
    'refuses a %s message the template broke (an annotation with a quote and a newline), naming the template and the field',
    (status) => {
      const error = triggerErrorOf(() => parseAlarmEvent(captureOf('sns-json', 'quote', status), EDGE));
      expect(error.field).toBe('Records[0].Sns.Message.alerts[0].annotations.description');
      expect(error.message).toMatch(/AMP's JSON template \(sns\.default\.message\) writes values unescaped/);
    },
  );

  it("refuses a group Alertmanager cut at 256 KB (the 'truncated' attribute), saying how to avoid it", () => {
    for (const via of ['sns-json', 'sns-text'] as const) {
      const event = captureOf(via, 'big', 'firing');
      expect(Buffer.byteLength(event.Records[0]?.Sns.Message ?? '')).toBe(262_144);
      const error = triggerErrorOf(() => parseAlarmEvent(event, EDGE));
      expect(error.field).toBe('Records[0].Sns.MessageAttributes.truncated');
      expect(error.message).toMatch(TRUNCATED);
    }
  });

  it("refuses a message AMP marked truncated with its 'modified' note, even where the cut left valid JSON", () => {
    const event = captureOf('sns-json', 'single', 'firing');
    const sns = event.Records[0]?.Sns as LambdaSnsEvent['Records'][number]['Sns'];
    sns.MessageAttributes = {
      truncated: { Type: 'String', Value: 'true' },
      modified: {
        Type: 'String',
        Value:
          'Message: Error - Message has been truncated from 1040 KB, because it exceeds the 256 KB size limit.',
      },
    };
    const error = triggerErrorOf(() => parseAlarmEvent(event, EDGE));
    expect(error.message).toMatch(/truncated from 1040 KB/);
    expect(error.message).toMatch(TRUNCATED);
  });

  it("refuses a message AMP replaced (an empty one), quoting AMP's note", () => {
    const event = captureOf('sns-json', 'single', 'firing');
    const sns = event.Records[0]?.Sns as LambdaSnsEvent['Records'][number]['Sns'];
    sns.Message = 'Error - Message should not be empty.';
    sns.MessageAttributes = {
      modified: { Type: 'String', Value: 'Message: Error - Message should not be empty.' },
    };
    const error = triggerErrorOf(() => parseAlarmEvent(event, EDGE));
    expect(error.field).toBe('Records[0].Sns.MessageAttributes.modified');
    expect(error.message).toMatch(/Message should not be empty/);
  });

  it.each(AMP_CAPTURES.filter((c) => c.via === 'sns-text' && c.scenario !== 'big').map((c) => [c.file]))(
    "refuses Alertmanager's default text in %s with one line pointing at AWS's JSON template",
    (file) => {
      const error = triggerErrorOf(() => parseAlarmEvent(ampCapture(file), EDGE));
      expect(error.field).toBe('Records[0].Sns.Message');
      expect(error.message).toMatch(TEXT_REFUSAL);
      expect(error.message).not.toContain('\n');
    },
  );

  it('reads the same message from a bare SNS notification (HTTP form), its fields named from the notification', () => {
    const sns = captureOf('sns-json', 'single', 'firing').Records[0]?.Sns;
    expect(parseSnsNotification(sns, EDGE)).toEqual(webhookTrigger('single', 'firing'));
    const broken = captureOf('sns-json', 'quote', 'firing').Records[0]?.Sns;
    expect(triggerErrorOf(() => parseSnsNotification(broken, EDGE)).field).toBe(
      'Message.alerts[0].annotations.description',
    );
  });

  it("reads Go times in any zone, with a monotonic reading, as Go's JSON writes them", () => {
    const event = captureOf('sns-json', 'single', 'firing');
    const sns = event.Records[0]?.Sns as LambdaSnsEvent['Records'][number]['Sns'];
    const at = (startsAt: string) => {
      sns.Message = sns.Message.replace(/"startsAt": "[^"]*"/, `"startsAt": "${startsAt}"`);
      return parseAlarmEvent(event, EDGE)[0]?.alerts[0]?.startsAt;
    };
    expect(at('2026-11-28 09:48:35.633 +0100 CET')).toBe('2026-11-28T09:48:35.633+01:00');
    expect(at('2026-11-28 03:18:35 -0530 X m=+12.250000001')).toBe('2026-11-28T03:18:35-05:30');
    const error = triggerErrorOf(() => at('2026-11-28T08:48:35.633Z'));
    expect(error.field).toBe('Records[0].Sns.Message.alerts[0].startsAt');
  });

  it('names the field of a well-formed message that lacks what routing needs', () => {
    const event = captureOf('sns-json', 'single', 'firing');
    const sns = event.Records[0]?.Sns as LambdaSnsEvent['Records'][number]['Sns'];
    sns.Message = sns.Message.replace('"alertname": "CiliumUnmanagedPods", ', '');
    expect(triggerErrorOf(() => parseAlarmEvent(event, EDGE)).field).toBe(
      'Records[0].Sns.Message.alerts[0].labels.alertname',
    );
  });

  it('reads every capture the kit wrote', () => {
    const seen = AMP_CAPTURES.map((c) => `${c.via} ${c.scenario} ${c.status}`).sort();
    expect(seen).toEqual(
      ['webhook', 'sns-json', 'sns-text']
        .flatMap((via) =>
          [
            'big firing',
            'grouped firing',
            'grouped resolved',
            'quote firing',
            'quote resolved',
            'single firing',
            'single resolved',
          ].map((s) => `${via} ${s}`),
        )
        .sort(),
    );
    for (const c of AMP_CAPTURES.filter((c) => c.via === 'webhook'))
      expect(parseAlertmanager(ampCapture(c.file), EDGE).status).toBe(c.status);
  });
});
