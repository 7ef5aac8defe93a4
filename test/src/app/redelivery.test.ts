import { describe, expect, it } from 'vitest';
import { handleRecord } from '../../../functions/worker-batch.ts';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { createApp } from '../../../src/app/app.ts';
import { createWorker } from '../../../src/app/worker.ts';
import { SILENT } from '../../../src/engine/run.ts';
import type { Job } from '../../../src/queue/job.ts';
import type { DeadLetter } from '../../../src/queue/types.ts';
import { slackSink } from '../../../src/slack/sink.ts';
import { memoryStore } from '../../../src/store/index.ts';
import { parseAlertmanager } from '../../../src/triggers/index.ts';
import { jobRecord, recordingQueue, unmanagedAlert } from '../../functions/harness.ts';
import { scenarioAndSlack } from './scenario-and-slack.ts';
import { testPorts } from './test-ports.ts';

/** What a person sees of a run: its record's outcome and writes, and what was said in chat. */
interface Seen {
  record: unknown;
  chat: { method: string; text: string | undefined; threaded: boolean }[];
}

// Filled by the single delivery, the first case: the others must look exactly like it.
let single: Seen | undefined;

describe('SQS delivering a job again while its first delivery still runs', () => {
  const env = scenarioAndSlack(['unmanaged-pods']);

  it.each([0, 1, 3])(
    'with %i redeliveries during the run, the record and the chat thread are as one delivery leaves them',
    async (redeliveries) => {
      const store = memoryStore();
      const queue = recordingQueue();
      const chat = slackSink({ token: 'xoxb-test', slackApiUrl: env.slack.url, threads: store.threads });
      let reached: () => void = () => {};
      const connected = new Promise<void>((resolve) => {
        reached = resolve;
      });
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const ports = testPorts({
        store,
        queue,
        chat,
      });
      // The first delivery holds here, mid-run (record running, lease held), until released.
      const worker = createWorker(ports, {
        runbooks: RUNBOOKS,
        connect: async () => {
          reached();
          await gate;
          return env.scenario.access;
        },
      });
      await createApp(ports).dispatch(parseAlertmanager(unmanagedAlert(), { receivedAt: new Date() }));
      const [job] = queue.sent as [Job];
      const letters: DeadLetter[] = [];
      const deps = {
        run: (j: Job) => worker.run(j),
        deadLetter: async (letter: DeadLetter) => {
          letters.push(letter);
          await worker.deadLettered(letter);
        },
        maxAttempts: 3,
        log: SILENT,
      };

      const first = handleRecord(jobRecord(job, 1), deps);
      await connected;
      expect(await store.runs.get(job.id)).toMatchObject({ status: 'running' });
      for (let n = 2; n < 2 + redeliveries; n++) {
        // Each redelivery finds the run going on: it is retried (or, past maxAttempts, dead-lettered).
        await handleRecord(jobRecord(job, n), deps).catch(() => {});
        expect(await store.runs.get(job.id)).toMatchObject({ status: 'running' });
      }
      release();
      await first;

      const record = await store.runs.get(job.id);
      expect(record).toMatchObject({ status: 'done', posted: true });
      expect(record?.error).toBeUndefined();
      const evicted = (record?.actions ?? []).filter((a) => /^evict-pod .*: done/.test(a));
      expect(evicted).toHaveLength(env.scenario.plan.unmanagedPods?.evictable.length ?? -1);
      const said = env.slack.calls.map((c) => c.params.text ?? '');
      expect(said.filter((text) => /Failed|gave up|Interrupted/.test(text))).toEqual([]);
      const seen: Seen = {
        record: {
          status: record?.status,
          verdict: record?.verdict,
          summary: record?.summary,
          actions: record?.actions.map((a) => a.replace(/ [a-z0-9-]+\/[a-z0-9-]+:/, ' <pod>:')),
          plan: record?.plan.length,
        },
        chat: env.slack.calls.map((c) => ({
          method: c.method,
          text: c.params.text?.replace(/run [\w-]+/g, 'run <id>').replace(/took [^·]+/g, 'took <t>'),
          threaded: c.params.thread_ts !== undefined,
        })),
      };
      // Past maxAttempts a redelivery is dead-lettered (the DLQ keeps a copy), yet nothing is given up.
      expect(letters).toHaveLength(Math.max(0, redeliveries - 1));
      if (redeliveries === 0) single = seen;
      else expect(seen).toEqual(single);
    },
    60_000,
  );
});
