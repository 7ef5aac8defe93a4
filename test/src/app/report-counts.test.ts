import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../cli/format/report.ts';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createApp } from '../../../src/app/app.ts';
import { createWorker } from '../../../src/app/worker.ts';
import type { Job } from '../../../src/queue/job.ts';
import { summarize } from '../../../src/report/summary.ts';
import { slackSink } from '../../../src/slack/sink.ts';
import { memoryStore } from '../../../src/store/index.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { recordingQueue, unmanagedAlert } from '../../functions/harness.ts';
import { scenarioAndSlack } from './scenario-and-slack.ts';
import { testPorts } from './test-ports.ts';

describe('one auto run of unmanaged-pods, read three ways', () => {
  const env = scenarioAndSlack(['unmanaged-pods']);

  it('the CLI, the Slack message and the audit record give the same found, fixed and open; the root cause is open', async () => {
    const store = memoryStore();
    const queue = recordingQueue();
    const ports = testPorts({
      store,
      queue,
      chat: slackSink({ token: 'xoxb-test', slackApiUrl: env.slack.url }),
    });
    const worker = createWorker(ports, { runbooks: RUNBOOKS, connect: async () => env.scenario.access });
    await createApp(ports).dispatch(parseAlertmanager(unmanagedAlert(), { receivedAt: new Date() }));
    const [job] = queue.sent as [Job];
    expect(job.mode).toBe('auto');
    await worker.run(job);

    const record = await store.runs.get(job.id);
    if (!record?.report || !record.summary) throw new Error('the run left no report');
    const { found, fixed, open } = record.summary;
    expect(fixed).toBeGreaterThan(0);
    expect(open).toBeGreaterThan(0);
    expect(found).toBe(fixed + open);
    const counts = `${found} found, ${fixed} fixed, ${open} open`;

    expect(formatReport(record.report)).toContain(`Found (${counts}):`);
    const posted = env.slack.calls.filter((call) => call.method === 'chat.postMessage').at(-1);
    expect(posted?.params.text).toContain(counts);
    const blocks = JSON.parse(posted?.params.blocks ?? '[]') as { text?: { text: string } }[];
    expect(blocks.some((block) => block.text?.text.startsWith(`*Found (${counts})*`))).toBe(true);

    // The operator watcher's selector is why this recurs: it stays open after the pods are fixed.
    const openCodes = summarize(record.report).open.map((problem) => problem.code);
    expect(openCodes).toContain('OPERATOR_SELECTOR_NARROW');
    expect(record.summary.diagnosis).toMatch(
      /^\d+ of \d+ fixed and verified \(\d+ pods? evicted\), \d+ open: .*, the cause: pod-restart-selector/,
    );
  });
});
