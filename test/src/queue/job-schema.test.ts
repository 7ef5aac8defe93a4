import { describe, expect, it } from 'vitest';
import { parseJob } from '../../../src/queue/job-schema.ts';
import { routeTrigger } from '../../../src/routing/route.ts';
import { alarmTrigger, counterIds, RUNBOOK_IDS, slackCommand, testConfig } from '../routing/fixtures.ts';

const route = (trigger: Parameters<typeof routeTrigger>[0]) =>
  routeTrigger(trigger, { config: testConfig(), runbooks: RUNBOOK_IDS, newId: counterIds() }).jobs;

describe('parseJob', () => {
  it('reads back every routed job whole, trigger details included', () => {
    const jobs = [
      ...route(alarmTrigger('cilium-node-connectivity-down', { ClusterName: 'prod-eu' })),
      ...route(slackCommand({ cluster: 'sim', runbook: 'all', mode: 'auto', params: { monitorSeconds: 5 } })),
    ];
    expect(jobs).toHaveLength(1 + RUNBOOK_IDS.length);
    for (const job of jobs) expect(parseJob(JSON.stringify(job))).toEqual(job);
    // The parts the worker and the chat need after the queue: where to answer, which alarm.
    expect(parseJob(JSON.stringify(jobs[0])).trigger.alarm?.region).toBe('eu-west-1');
    expect(parseJob(JSON.stringify(jobs[1])).trigger.reply?.responseUrl).toMatch(
      /^https:\/\/hooks\.slack\.com/,
    );
  });

  it('names the first bad field', () => {
    const [job] = route(slackCommand({ cluster: 'sim', runbook: 'host-identity' }));
    expect(() => parseJob(JSON.stringify({ ...job, mode: 'yolo' }))).toThrow(/^mode: /);
    expect(() => parseJob(JSON.stringify({ ...job, resume: { runId: '' } }))).toThrow(/^resume\.runId: /);
    expect(() => parseJob('[1')).toThrow('not JSON');
  });
});
