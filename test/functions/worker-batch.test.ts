import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { handleRecord, type WorkerBatchDeps } from '../../functions/worker-batch.ts';
import { RUNBOOK_CATALOG } from '../../runbooks/catalog.ts';
import { RUNBOOKS } from '../../runbooks/index.ts';
import type { ClusterPorts } from '../../src/app/ports.ts';
import { createWorker } from '../../src/app/worker.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { SILENT } from '../../src/engine/run.ts';
import type { Job } from '../../src/queue/job.ts';
import { memoryQueue } from '../../src/queue/memory.ts';
import type { DeadLetter } from '../../src/queue/types.ts';
import { dispatchTrigger } from '../../src/routing/dispatch.ts';
import { memoryStore } from '../../src/store/index.ts';
import { simAccess, startScenario } from '../helpers/sim-access.ts';
import { CLUSTER, collector, RUNBOOK_IDS, sqsRecord, testConfig } from './harness.ts';

const job: Job = {
  id: 'job-1',
  runbook: 'unmanaged-pods',
  cluster: CLUSTER,
  mode: 'dry-run',
  params: {},
  trigger: {
    source: 'slack-command',
    receivedAt: '2025-06-02T03:00:00.000Z',
    deliveryKey: 'slack-command:0f1e2d3c',
    alerts: [],
    cluster: CLUSTER,
    runbook: 'unmanaged-pods',
    mode: 'dry-run',
    params: {},
    actor: { kind: 'user', id: 'U2147483697', name: 'Steve' },
  },
  dedupeKey: 'slack-command:0f1e2d3c|prod-eu|unmanaged-pods',
};

function deps(run: WorkerBatchDeps['run'], maxAttempts = 3) {
  const letters: DeadLetter[] = [];
  const deadLetter = vi.fn(async (letter: DeadLetter) => {
    letters.push(letter);
  });
  const log = { warn: vi.fn(), error: vi.fn() };
  return { run: vi.fn(run), deadLetter, maxAttempts, letters, log };
}

const failing = async () => {
  throw new Error('cluster prod-eu: connect ETIMEDOUT');
};

describe('handleRecord (one SQS record)', () => {
  it('a good job is run once, as sent, and acknowledged', async () => {
    const d = deps(async () => ({ status: 'done' }));
    await expect(handleRecord(sqsRecord(JSON.stringify(job), 1), d)).resolves.toBeUndefined();
    expect(d.run).toHaveBeenCalledTimes(1);
    expect(d.run.mock.calls[0]?.[0]).toEqual(job);
    expect(d.deadLetter).not.toHaveBeenCalled();
  });

  it('a job that throws with attempts left throws, so SQS delivers it again', async () => {
    const d = deps(failing);
    await expect(handleRecord(sqsRecord(JSON.stringify(job), 1), d)).rejects.toThrow(
      'cluster prod-eu: connect ETIMEDOUT',
    );
    await expect(handleRecord(sqsRecord(JSON.stringify(job), 2), d)).rejects.toThrow();
    expect(d.run).toHaveBeenCalledTimes(2);
    expect(d.deadLetter).not.toHaveBeenCalled();
    // The batch response names only the message: the log says why, delivery by delivery.
    expect(d.log.warn.mock.calls.map(([, data]) => data)).toEqual([
      { messageId: 'm-1', attempt: 1, maxAttempts: 3, reason: 'cluster prod-eu: connect ETIMEDOUT' },
      { messageId: 'm-1', attempt: 2, maxAttempts: 3, reason: 'cluster prod-eu: connect ETIMEDOUT' },
    ]);
  });

  it('a dead letter that cannot be sent is said with both reasons and thrown, so SQS redrives it', async () => {
    const d = deps(failing);
    d.deadLetter.mockRejectedValueOnce(new Error('SQS SendMessage: ThrottlingException'));
    await expect(handleRecord(sqsRecord(JSON.stringify(job), 3), d)).rejects.toThrow('ThrottlingException');
    expect(d.log.error).toHaveBeenCalledWith('job could not be dead-lettered', {
      messageId: 'm-1',
      attempt: 3,
      maxAttempts: 3,
      reason: 'failed 3 times: cluster prod-eu: connect ETIMEDOUT',
      error: 'SQS SendMessage: ThrottlingException',
    });
  });

  it('on its last attempt it is dead-lettered with the reason, and not thrown again', async () => {
    const d = deps(failing);
    const body = JSON.stringify(job);
    await expect(handleRecord(sqsRecord(body, 3), d)).resolves.toBeUndefined();
    expect(d.letters).toEqual([
      { body, reason: 'failed 3 times: cluster prod-eu: connect ETIMEDOUT', attempts: 3 },
    ]);
  });

  it.each([
    ['not JSON', '{"id": "job-1", ', 'poison message: not JSON'],
    ['JSON but not a job', JSON.stringify({ ...job, runbook: undefined }), 'poison message: runbook: '],
    ['a job with a wrong-typed mode', JSON.stringify({ ...job, mode: 'yolo' }), 'poison message: mode: '],
  ])('a poison message (%s) goes to the DLQ at once with its reason, never run', async (_, body, reason) => {
    const d = deps(async () => undefined);
    await expect(handleRecord(sqsRecord(body, 1), d)).resolves.toBeUndefined();
    expect(d.run).not.toHaveBeenCalled();
    expect(d.letters).toHaveLength(1);
    expect(d.letters[0]?.body).toBe(body);
    expect(d.letters[0]?.attempts).toBe(1);
    expect(d.letters[0]?.reason.startsWith(reason)).toBe(true);
  });

  it('as the Lambda runs it, a batch reports only the failed message for redelivery', async () => {
    const failingJob = { ...job, id: 'job-fails' };
    const d = deps(async (j) => {
      if (j.id === 'job-fails') await failing();
    });
    const event: SQSEvent = {
      Records: [
        sqsRecord(JSON.stringify(job), 1, 'm-good'),
        sqsRecord(JSON.stringify(failingJob), 1, 'm-retry'),
        sqsRecord('poison', 1, 'm-poison'),
        sqsRecord(JSON.stringify(failingJob), 3, 'm-dead'),
      ],
    };
    const response = await processPartialResponse(
      event,
      (record: SQSRecord) => handleRecord(record, d),
      new BatchProcessor(EventType.SQS),
    );
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-retry' }] });
    expect(d.letters.map((l) => l.reason.split(':')[0])).toEqual(['poison message', 'failed 3 times']);
  });
});

/** The in-process queue → the worker, as `responder serve` wires it, with `connect` supplied by the test. */
function workerQueue(connect: ClusterPorts['connect']) {
  const config = testConfig();
  const store = memoryStore();
  const out = collector();
  const worker = createWorker(
    {
      config,
      runbookIds: RUNBOOK_IDS,
      runbookInfo: RUNBOOK_CATALOG,
      store,
      queue: { send: (next) => queue.send(next) },
      chat: consoleSink(out.stream),
      defaultChannel: '#cilium-responder',
      now: () => new Date(),
      newId: () => 'unused',
      log: SILENT,
    },
    { runbooks: RUNBOOKS, connect },
  );
  const queue = memoryQueue({
    maxAttempts: 3,
    retryDelayMs: 5,
    handle: (queued) => worker.run(queued),
    onDead: (letter) => worker.deadLettered(letter),
  });
  const submit = async (runId: string) => {
    const dispatched = await dispatchTrigger(
      { ...job.trigger, source: 'cli', deliveryKey: `cli:${runId}`, actor: { kind: 'user', id: 'oncall' } },
      {
        config,
        store,
        queue,
        runbooks: RUNBOOK_IDS,
        runbookInfo: RUNBOOK_CATALOG,
        now: () => new Date(),
        newId: () => runId,
      },
    );
    expect(dispatched.queued).toHaveLength(1);
  };
  return { store, queue, out, submit };
}

describe('the in-process queue and runJob when the cluster cannot be reached', () => {
  it('retries the job, then dead-letters it with its reason, and the run record says it failed', async () => {
    const attempts: Date[] = [];
    const { store, queue, out, submit } = workerQueue(async (cluster) => {
      attempts.push(new Date());
      throw new Error(`connect ${cluster.name}: connect ECONNREFUSED 127.0.0.1:1`);
    });
    await submit('run-unreachable');

    await queue.idle();

    expect(attempts).toHaveLength(3);
    expect(queue.deadLetters).toHaveLength(1);
    const [letter] = queue.deadLetters as [DeadLetter];
    expect(letter.reason).toBe('failed 3 times: connect prod-eu: connect ECONNREFUSED 127.0.0.1:1');
    expect(letter.attempts).toBe(3);
    expect(JSON.parse(letter.body)).toMatchObject({ id: 'run-unreachable', runbook: 'unmanaged-pods' });
    // Nothing was reported as if it ran: the thread says it failed and why, and so does the record.
    expect(out.text()).toContain(
      'Failed: unmanaged-pods on prod-eu (run run-unreachable) gave up after 3 attempts: failed 3 times: connect prod-eu: connect ECONNREFUSED',
    );
    expect(out.text()).not.toMatch(/degraded|healthy|remediated/);
    const record = await store.runs.get('run-unreachable');
    expect(record?.status).toBe('failed');
    expect(record?.error).toContain('gave up after 3 attempts');
    // The lease was given back each time: a later job for the same pair is not a "duplicate".
    expect(await store.leases.acquire(`${CLUSTER}|unmanaged-pods`, 'someone-else', 60, new Date())).toBe(
      true,
    );
  });

  it('a job that fails once and then connects is done, with no dead letter and no stale error', async () => {
    const { sim } = await startScenario(['healthy']);
    try {
      let calls = 0;
      const { store, queue, out, submit } = workerQueue(async () => {
        calls++;
        if (calls === 1) throw new Error('connect prod-eu: connect ECONNREFUSED 127.0.0.1:1');
        return simAccess(sim);
      });
      await submit('run-flaky');
      await queue.idle();

      expect(calls).toBe(2);
      expect(queue.deadLetters).toEqual([]);
      const record = await store.runs.get('run-flaky');
      expect(record?.status).toBe('done');
      expect(record?.error).toBeUndefined();
      expect(record?.report?.cluster).toBe(CLUSTER);
      expect(out.text()).toContain(`[#${CLUSTER} · ${CLUSTER}/unmanaged-pods · new]`);
    } finally {
      await sim.close();
    }
  });
});
