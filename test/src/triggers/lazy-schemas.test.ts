import { describe, expect, it, vi } from 'vitest';

/** Object schemas zod has built so far (z.object and z.strictObject calls). */
const built = vi.hoisted(() => ({ objects: 0 }));
vi.mock('zod', async (importOriginal) => {
  const z = await importOriginal<typeof import('zod')>();
  const counted =
    <A extends unknown[], R>(make: (...args: A) => R) =>
    (...args: A): R => {
      built.objects++;
      return make(...args);
    };
  return { ...z, object: counted(z.object), strictObject: counted(z.strictObject) };
});

const { EDGE, fixtureJson } = await import('./fixtures.ts');
const { parseAlertmanager, parseGrafana, parseSchedule } = await import('../../../src/triggers/index.ts');
const { parseBlockActions } = await import('../../../src/slack/interactions.ts');

/**
 * The http function's cold start loads every parser; a request uses one. Each payload's schema
 * is built by its first parse, once, so a cold start does not build the schemas of payloads it
 * has not seen (bench "Lambda bundles": the http cold start / `node -e 0`).
 */
describe('payload schemas are built on first use', () => {
  it.each([
    ['an Alertmanager webhook', () => parseAlertmanager(fixtureJson('alertmanager-v4.json'), EDGE)],
    ['a Grafana webhook', () => parseGrafana(fixtureJson('grafana-11-webhook.json'), EDGE)],
    [
      'a Slack button press',
      () => parseBlockActions({ payload: JSON.stringify(fixtureJson('slack-block-actions.json')) }, EDGE),
    ],
    ['a scheduled sweep', () => parseSchedule(fixtureJson('eventbridge-scheduled-event.json'), EDGE)],
  ])('%s: its first parse builds its schema, the next one reuses it', (_, parse) => {
    const before = built.objects;
    parse();
    const afterFirst = built.objects;
    expect(afterFirst).toBeGreaterThan(before);
    parse();
    expect(built.objects).toBe(afterFirst);
  });
});
