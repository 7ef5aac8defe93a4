import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOKS_NOT_ON_ROOT } from '../../../runbooks/cgroup-root-hooks/placement.ts';
import { AGENT_CHECK_FAILED } from '../../../runbooks/cgroup-root-hooks/steps/agent-cgroup-root.ts';
import { defineRunbook, defineStep, outcome } from '../../../sdk/index.ts';
import type { PodRef } from '../../../sim/scenarios/plan.ts';
import type { createWorker } from '../../../src/app/worker.ts';
import { type ClusterAccess, type KubeFacade, RESOURCES } from '../../../src/cluster/types.ts';
import type { AnyRunbook, Report } from '../../../src/engine/types.ts';
import type { Job } from '../../../src/queue/job.ts';
import { memoryQueue } from '../../../src/queue/memory.ts';
import type { JobQueue } from '../../../src/queue/types.ts';
import { CLUSTER } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { scheduleTrigger, slackCommand } from '../routing/fixtures.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from '../store/local-dynamodb.ts';
import { continuationRig, type Invocation, MARGIN_MS, type RigOptions } from './continue-rig.ts';

const NODES = 60;
const BROKEN = 4;
/** What one exec costs the invocation, on the fake Lambda clock. */
const EXEC_MS = 1_000;
const LEASE = `${CLUSTER}|cgroup-root-hooks`;

let local: LocalDynamoDB;
let scenario: SimUnderTest;
let lostNode: string;
beforeAll(async () => {
  local = await startLocalDynamoDB();
  scenario = await startScenario(['cgroup-private-ns'], {
    scenario: { nodes: NODES, brokenCgroupNodes: BROKEN },
  });
  // One healthy agent the check cannot read, among the first it reaches: its failure and its
  // evidence must survive the pause.
  const healthy = new Set(scenario.plan.cgroup?.healthyNodes);
  lostNode = (await scenario.access.cilium.agents()).find((agent) => healthy.has(agent.node))?.node as string;
  const lost = scenario.sim.cluster.agents.get(lostNode);
  if (!lost) throw new Error('no agent state');
  lost.cgroup.root = '/run/elsewhere';
});
afterAll(async () => {
  await scenario.sim.close();
  await local.stop();
});

/** The simulator's cluster, telling the invocation running now of every exec into an agent and every eviction. */
function metered(access: ClusterAccess, current: () => Invocation | undefined): ClusterAccess {
  const evict: KubeFacade['evict'] = async (namespace, name, options) => {
    if (!options.dryRun) current()?.spend(`${namespace}/${name}`);
    return access.kube.evict(namespace, name, options);
  };
  const kube = new Proxy(access.kube, {
    get(target, property) {
      if (property === 'evict') return evict;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const cilium = new Proxy(access.cilium, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!['exec', 'execFirst', 'dbg'].includes(String(property))) return value.bind(target);
      return (agent: { node: string }, ...rest: unknown[]) => {
        current()?.spend(agent.node);
        return value.call(target, agent, ...rest);
      };
    },
  });
  return { ...access, kube, cilium };
}

function cgroupJob(id: string): Job {
  return {
    id,
    runbook: 'cgroup-root-hooks',
    cluster: CLUSTER,
    mode: 'dry-run',
    params: {},
    trigger: scheduleTrigger('nightly', { cluster: CLUSTER, runbook: 'cgroup-root-hooks' }),
    dedupeKey: `key-${id}`,
  };
}

type Setup = Omit<RigOptions, 'connect' | 'costMs'> & { cluster?: () => Promise<ClusterAccess> };

async function setup(options: Setup = {}) {
  const { cluster, ...rest } = options;
  const rig = await continuationRig(local, {
    ...rest,
    costMs: EXEC_MS,
    connect: async (current) => (await cluster?.()) ?? metered(scenario.access, current),
  });
  const meter = (access: ClusterAccess) => metered(access, rig.current);
  /** One delivery of `job` in a fresh invocation of `budgetMs`; `execs`: the agents and pods it touched. */
  const deliver = async (job: Job, budgetMs: number) => {
    const result = await rig.deliver(job, budgetMs);
    return { ...result, execs: result.calls };
  };
  return { ...rig, deliver, meter };
}

const step = (report: Report | undefined, id: string) => report?.steps.find((s) => s.id === id);
const targets = (report: Report | undefined, code: string) =>
  (step(report, 'agent-cgroup-root')?.findings ?? [])
    .filter((f) => f.code === code)
    .map((f) => f.target)
    .sort();

describe('a cgroup check that cannot finish in one invocation', () => {
  it('continues in the next from its checkpoint, and says every agent in one report', async () => {
    const { store, queue, chat, deliver } = await setup();
    const first = await deliver(cgroupJob('job-1'), 25_000);

    // It paused: no report yet, the run handed to the job that continues it.
    expect(first.report).toBeUndefined();
    expect(chat.reports).toHaveLength(0);
    const [next] = queue.sent as [Job];
    expect(queue.sent).toHaveLength(1);
    expect(next).toMatchObject({ id: 'job-1-continue-2', resume: { runId: 'job-1', invocation: 2 } });
    expect(first.record).toMatchObject({ status: 'running', jobId: next.id, owner: `${next.id}/handed` });
    expect((await store.leases.holder(LEASE, new Date()))?.owner).toBe(`${next.id}/handed`);
    const checkedFirst = new Set(first.execs);
    expect(checkedFirst.size).toBeGreaterThan(10);
    expect(checkedFirst.size).toBeLessThan(NODES);
    // What the report says of the failed agent and of some broken one, only the checkpoint carried.
    expect(checkedFirst.has(lostNode)).toBe(true);
    expect(scenario.plan.cgroup?.brokenNodes.some((node) => checkedFirst.has(node))).toBe(true);

    const second = await deliver(next, 900_000);

    // The second invocation checked exactly the agents the first did not reach, each once.
    expect(second.execs.filter((node) => checkedFirst.has(node))).toEqual([]);
    expect(new Set(second.execs).size).toBe(second.execs.length);
    expect(new Set([...first.execs, ...second.execs]).size).toBe(NODES);
    // One report, one record, every agent's verdict in it.
    expect(chat.reports).toHaveLength(1);
    // The sweep's summary waited for the run's end, too.
    expect(chat.texts).toEqual([
      expect.stringMatching(/^Sweep nightly on prod-eu:\n• cgroup-root-hooks: degraded/),
    ]);
    const report = chat.reports[0];
    expect(report?.runId).toBe('job-1');
    expect(report?.verdict).toBe('degraded');
    expect(targets(report, HOOKS_NOT_ON_ROOT)).toEqual([...(scenario.plan.cgroup?.brokenNodes ?? [])].sort());
    expect(targets(report, AGENT_CHECK_FAILED)).toEqual([lostNode]);
    const check = step(report, 'agent-cgroup-root');
    expect(check?.summary).toMatch(
      new RegExp(
        `^${BROKEN} of ${NODES} agents do not have the socket-LB hooks on the host's cgroup root: .+ and 1 more; 1 could not be checked$`,
      ),
    );
    expect(check?.evidence.at(-1)).toEqual({
      source: `1 agent(s): ${lostNode}`,
      text: expect.stringContaining("cannot statx '/run/cilium/cgroupv2'"),
    });
    expect(step(report, 'socket-lb')?.status).toBe('pass');
    const runs = await store.runs.list();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      runId: 'job-1',
      jobId: next.id,
      status: 'done',
      verdict: 'degraded',
      posted: true,
    });
    expect(second.record.startedAt).toBe(first.record.startedAt);
    expect(await store.leases.holder(LEASE, new Date())).toBeUndefined();
    expect(queue.sent).toHaveLength(1);
  });
});

describe('the lease across the hand-over', () => {
  it('keeps every other run of the pair out while the run waits for its next invocation', async () => {
    const { store, queue, chat, clock, deliver } = await setup();
    const first = await deliver(cgroupJob('job-1'), 25_000);
    const [next] = queue.sent as [Job];
    expect(first.record.status).toBe('running');
    // The continuation waits in the queue past the lease's own life; a person asks meanwhile.
    clock.advance(3 * 60_000);
    const asked: Job = {
      ...cgroupJob('job-2'),
      trigger: slackCommand({ cluster: CLUSTER, runbook: 'cgroup-root-hooks' }),
    };
    const other = await deliver(asked, 900_000);
    expect(other.execs).toEqual([]);
    expect(other.record).toMatchObject({ status: 'duplicate' });
    expect(other.record.error).toContain(
      `another cgroup-root-hooks run on ${CLUSTER} is in progress (job ${next.id}`,
    );
    expect(chat.texts).toEqual([
      expect.stringMatching(/^Not run: cgroup-root-hooks on prod-eu asked by ana \(run job-2\)/),
    ]);
    // An alert for the pair finds it held too, and the run goes on to its one report.
    expect((await deliver(cgroupJob('job-3'), 900_000)).record.status).toBe('duplicate');
    const second = await deliver(next, 900_000);
    expect(second.record.status).toBe('done');
    expect(chat.reports.map((report) => report.runId)).toEqual(['job-1']);
    expect((await store.runs.get('job-1'))?.status).toBe('done');
  });
});

describe('a run that keeps needing more invocations', () => {
  it('ends as timed out once its deadline, counted from its first invocation, has passed', async () => {
    const { store, queue, chat, clock, deliver } = await setup({ deadlineMs: 4 * 60_000 });
    const first = await deliver(cgroupJob('job-1'), 25_000);
    const checkedFirst = new Set(first.execs);
    const [next] = queue.sent as [Job];
    // The continuation waited in the queue until the run's four minutes were up.
    clock.advance(4 * 60_000);
    const second = await deliver(next, 900_000);

    expect(second.execs).toEqual([]);
    expect(queue.sent).toHaveLength(1);
    expect(chat.reports).toHaveLength(1);
    const report = chat.reports[0];
    expect(report?.verdict).toBe('failed');
    const check = step(report, 'agent-cgroup-root');
    expect(check?.status).toBe('error');
    expect(check?.summary).toMatch(
      new RegExp(
        `^timed out: its 4-minute deadline, counted from its start at ${first.record.startedAt}, ran out in its invocation 2: \\d+ of ${NODES} agents do not have .*; 1 could not be checked; \\d+ not reached$`,
      ),
    );
    // What it did is said: the agents the first invocation checked.
    const broken = (scenario.plan.cgroup?.brokenNodes ?? []).filter((node) => checkedFirst.has(node)).sort();
    expect(targets(report, HOOKS_NOT_ON_ROOT)).toEqual(broken);
    expect(targets(report, AGENT_CHECK_FAILED)).toEqual([lostNode]);
    expect(await store.runs.get('job-1')).toMatchObject({ status: 'done', verdict: 'failed', posted: true });
    expect(await store.leases.holder(LEASE, clock.now())).toBeUndefined();
  });

  it('ends as timed out at its last allowed invocation, with what every invocation did', async () => {
    const { store, queue, chat, deliver } = await setup({ maxInvocations: 2 });
    const first = await deliver(cgroupJob('job-1'), 10_000);
    const [next] = queue.sent as [Job];
    const second = await deliver(next, 10_000);

    // The second pauses too, but may not go on: no third invocation.
    expect(second.execs.length).toBeGreaterThan(0);
    expect(queue.sent).toHaveLength(1);
    expect(second.report?.verdict).toBe('failed');
    expect(chat.reports).toHaveLength(1);
    const check = step(chat.reports[0], 'agent-cgroup-root');
    expect(check?.summary).toMatch(
      /^timed out: it used all 2 worker invocations a run may take: .* \d+ not reached$/,
    );
    const reached = new Set([...first.execs, ...second.execs]);
    expect(reached.size).toBeLessThan(NODES);
    const broken = (scenario.plan.cgroup?.brokenNodes ?? []).filter((node) => reached.has(node)).sort();
    expect(targets(chat.reports[0], HOOKS_NOT_ON_ROOT)).toEqual(broken);
    expect(await store.runs.get('job-1')).toMatchObject({ status: 'done', verdict: 'failed' });
  });
});

describe('a continuation that fails', () => {
  /** The queue as the in-process worker runs it, each delivery a fresh invocation of `budgetMs`. */
  async function queued(failures: number) {
    let deliver: (job: Job, budgetMs: number) => Promise<unknown> = async () => undefined;
    let worker: ReturnType<typeof createWorker> | undefined;
    const queue = memoryQueue({
      handle: (job) => deliver(job, job.resume ? 900_000 : 25_000),
      maxAttempts: 3,
      retryDelayMs: 1,
      onDead: (letter) => worker?.deadLettered(letter) ?? Promise.resolve(),
    });
    let failed = 0;
    let connects = 0;
    const under = await setup({
      queue,
      cluster: async () => {
        if (connects++ > 0 && failed < failures) {
          failed += 1;
          throw new Error('connect ECONNREFUSED 10.0.0.1:443');
        }
        return under.meter(scenario.access);
      },
    });
    deliver = under.deliver;
    worker = under.worker;
    return { ...under, queue };
  }

  it('is retried by the queue, and goes on from the same checkpoint', async () => {
    const { queue, store, chat } = await queued(1);
    await queue.send(cgroupJob('job-1'));
    await queue.idle();
    expect(queue.deadLetters).toEqual([]);
    expect(chat.reports).toHaveLength(1);
    expect(targets(chat.reports[0], HOOKS_NOT_ON_ROOT)).toEqual(
      [...(scenario.plan.cgroup?.brokenNodes ?? [])].sort(),
    );
    expect(await store.runs.get('job-1')).toMatchObject({ status: 'done', verdict: 'degraded' });
  });

  it('is dead-lettered with its reason once its attempts are used, and its thread says so', async () => {
    const { queue, store, chat } = await queued(Number.POSITIVE_INFINITY);
    await queue.send(cgroupJob('job-1'));
    await queue.idle();
    expect(queue.deadLetters).toHaveLength(1);
    expect(JSON.parse(queue.deadLetters[0]?.body ?? '{}')).toMatchObject({ id: 'job-1-continue-2' });
    expect(queue.deadLetters[0]?.reason).toBe('failed 3 times: connect ECONNREFUSED 10.0.0.1:443');
    const record = await store.runs.get('job-1');
    expect(record).toMatchObject({ status: 'failed' });
    expect(record?.error).toBe('gave up after 3 attempts: failed 3 times: connect ECONNREFUSED 10.0.0.1:443');
    expect(chat.reports).toEqual([]);
    expect(chat.texts).toContainEqual(
      'Failed: cgroup-root-hooks on prod-eu (run job-1) gave up after 3 attempts: failed 3 times: connect ECONNREFUSED 10.0.0.1:443. The job is kept in the dead-letter queue.',
    );
    expect(await store.leases.holder(LEASE, new Date())).toBeUndefined();
  });

  it('is sent again by a redelivery of the job that paused, when its first send failed', async () => {
    const sent: Job[] = [];
    let refuse = true;
    const flaky: JobQueue = {
      async send(job) {
        if (refuse) {
          refuse = false;
          throw new Error('SQS: ServiceUnavailable');
        }
        sent.push(job);
      },
    };
    const { chat, deliver } = await setup({ queue: flaky });
    await expect(deliver(cgroupJob('job-1'), 25_000)).rejects.toThrow('SQS: ServiceUnavailable');
    const again = await deliver(cgroupJob('job-1'), 25_000);
    expect(again.execs).toEqual([]);
    expect(sent.map((job) => job.id)).toEqual(['job-1-continue-2']);
    const done = await deliver(sent[0] as Job, 900_000);
    expect(done.record.status).toBe('done');
    expect(chat.reports).toHaveLength(1);
  });
});

/**
 * A team's runbook that writes in a step that pauses: it evicts the planted pods one at a time and,
 * when its invocation is ending, saves which it handled and goes on in the next.
 */
function evictEach(pods: readonly PodRef[]) {
  return defineRunbook({
    id: 'evict-each',
    title: 'Evict each planted pod',
    summary: 'Evicts the planted pods one at a time, across invocations.',
    steps: [
      defineStep({
        id: 'evict',
        title: 'Evict the planted pods',
        writes: true,
        async run(ctx) {
          const handled = new Set((ctx.saved as string[] | undefined) ?? []);
          const done = [];
          for (const pod of pods) {
            if (handled.has(pod.name)) continue;
            if (ctx.pausing())
              return ctx.pause([...handled], outcome('warn', `${handled.size} handled`, { done }));
            done.push(await ctx.actuator.evictPod(pod, 'planted'));
            handled.add(pod.name);
          }
          return outcome('pass', `${handled.size} handled`, { done });
        },
      }),
    ],
  });
}

describe('writes across invocations', () => {
  it('draw from the one brake, and no pod is evicted twice', async () => {
    const planted = await startScenario(['unmanaged-pods']);
    try {
      const pods = planted.plan.unmanagedPods?.evictable ?? [];
      expect(pods.length).toBeGreaterThanOrEqual(3);
      const { store, queue, chat, clock, deliver, meter } = await setup({
        maxWrites: 2,
        runbooks: [evictEach(pods) as AnyRunbook],
        cluster: async () => meter(planted.access),
      });
      const job: Job = { ...cgroupJob('job-1'), runbook: 'evict-each', mode: 'auto' };
      // One eviction uses up this invocation's time.
      const first = await deliver(job, MARGIN_MS + EXEC_MS);
      expect(first.execs).toHaveLength(1);
      expect(first.record.actions.filter((line) => line.includes(': done'))).toHaveLength(1);
      const [next] = queue.sent as [Job];
      const second = await deliver(next, 900_000);

      // The brake allows two writes in its window: the second invocation had one left.
      expect(second.execs).toHaveLength(1);
      expect(second.execs.filter((pod) => first.execs.includes(pod))).toEqual([]);
      expect((await store.brake.state(CLUSTER, 2, 900, clock.now())).used).toBe(2);
      const done = chat.reports[0]?.steps[0]?.done ?? [];
      expect(done.map((d) => d.target).sort()).toEqual(
        pods.map((pod) => `${pod.namespace}/${pod.name}`).sort(),
      );
      expect(done.filter((d) => d.outcome === 'done')).toHaveLength(2);
      for (const held of done.filter((d) => d.outcome !== 'done'))
        expect(held).toMatchObject({
          outcome: 'blocked',
          detail: 'brake engaged: too many cluster writes in this window',
        });
      // The cluster agrees: exactly two planted pods were replaced.
      const uids = new Set(
        (await planted.access.kube.list(RESOURCES.pods, { project: 'metadata' })).map(
          (pod) => pod.metadata.uid,
        ),
      );
      expect(pods.filter((pod) => !uids.has(pod.uid))).toHaveLength(2);
      const record = await store.runs.get('job-1');
      expect(record?.actions.filter((line) => line.includes(': done'))).toHaveLength(2);
      expect(record?.actions).toHaveLength(pods.length);
    } finally {
      await planted.sim.close();
    }
  });
});
