import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { z } from 'zod';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import {
  type CiliumFacade,
  type ClusterAccess,
  type KubeFacade,
  RESOURCES,
} from '../../../src/cluster/types.ts';
import { fingerprint } from '../../../src/engine/fingerprint.ts';
import { outcome } from '../../../src/engine/outcome.ts';
import { InvalidParamsError, type RunOptions, runRunbook } from '../../../src/engine/run.ts';
import type {
  DoneAction,
  Finding,
  Outcome,
  PlannedAction,
  Report,
  Runbook,
  Step,
  StepContext,
  StepReport,
} from '../../../src/engine/types.ts';
import { collectingGarbage } from '../../helpers/gc.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';

type Params = Record<string, unknown>;
/** These made-up steps hand each other anything. */
type State = Map<string, unknown>;

/** A facade that fails the test if the engine (or a step) touches it at all. */
function untouchable<T>(what: string): T {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`${what}.${String(property)} was touched`);
      },
    },
  ) as T;
}

/** Access for runbooks that never reach a cluster. */
const offline: ClusterAccess = {
  name: 'offline',
  kube: untouchable<KubeFacade>('kube'),
  cilium: untouchable<CiliumFacade>('cilium'),
};

function step(
  id: string,
  run: (ctx: StepContext<Params, State>) => Promise<Outcome>,
  writes = false,
): Step<Params, State> & { run: Mock<(ctx: StepContext<Params, State>) => Promise<Outcome>> } {
  return { id, title: `Step ${id}`, writes, run: vi.fn(run) };
}

function runbook(steps: Step<Params, State>[], id = 'test-runbook'): Runbook<Params, State> {
  return {
    id,
    title: 'A test runbook',
    summary: 'steps made up for the engine tests',
    doc: 'runbooks/test-runbook.md',
    params: z.looseObject({}),
    answers: [],
    newState: () => new Map(),
    steps,
  };
}

function run(
  options: Partial<RunOptions<Params, State>> & { runbook: Runbook<Params, State> },
): Promise<Report> {
  return runRunbook({ access: offline, mode: 'dry-run', ...options });
}

function stepOf(report: Report, id: string): StepReport {
  const found = report.steps.find((s) => s.id === id);
  if (!found) throw new Error(`no step ${id} in the report`);
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runRunbook: steps', () => {
  it('runs the steps in order, one after the other, sharing ctx.state', async () => {
    const events: string[] = [];
    const book = runbook([
      step('look', async (ctx) => {
        events.push('look:start');
        await sleep(30);
        ctx.state.set('seen', ['shop/a', 'shop/b']);
        events.push('look:end');
        return outcome('pass', 'saw 2 pods');
      }),
      step('use', async (ctx) => {
        events.push('use:start');
        const seen = ctx.state.get('seen') as string[];
        ctx.state.set('used', seen.length);
        return outcome('pass', `used ${seen.join(', ')}`);
      }),
      step('last', async (ctx) => {
        events.push('last:start');
        return outcome(
          'pass',
          `state holds ${[...ctx.state.keys()].join(', ')}; used ${ctx.state.get('used')}`,
        );
      }),
    ]);

    const report = await run({ runbook: book });

    expect(events).toEqual(['look:start', 'look:end', 'use:start', 'last:start']);
    expect(report.steps.map((s) => [s.id, s.title, s.status, s.summary])).toEqual([
      ['look', 'Step look', 'pass', 'saw 2 pods'],
      ['use', 'Step use', 'pass', 'used shop/a, shop/b'],
      ['last', 'Step last', 'pass', 'state holds seen, used; used 2'],
    ]);
    expect(report.verdict).toBe('healthy');
  });

  it('gives each step the run context: cluster, mode, merged limits, parsed params, progress', async () => {
    const progress = vi.fn();
    let seen: StepContext<Params, State> | undefined;
    const book = runbook([
      step('look', async (ctx) => {
        seen = ctx;
        ctx.progress(3, 7, 'agents checked');
        return outcome('pass', 'ok');
      }),
    ]);

    await run({
      runbook: book,
      mode: 'auto',
      params: { namespace: 'shop' },
      limits: { maxEvictionsPerRun: 3 },
      onProgress: progress,
    });

    expect(seen?.cluster).toBe('offline');
    expect(seen?.mode).toBe('auto');
    expect(seen?.params).toEqual({ namespace: 'shop' });
    expect(seen?.limits).toMatchObject({
      maxEvictionsPerRun: 3,
      maxAgentRestartsPerRun: 1,
      gracePeriodSeconds: 60,
    });
    expect(seen?.signal.aborted).toBe(false);
    expect(progress).toHaveBeenCalledWith('look', 3, 7, 'agents checked', undefined);
  });

  it('reports a throwing step as an error with its message, fails the run, and skips the rest', async () => {
    const after = step('after', async () => outcome('pass', 'should not run'));
    const book = runbook([
      step('check', async () =>
        outcome('fail', 'found one', {
          findings: [{ code: 'UNMANAGED_POD', target: 'shop/a', severity: 'warning', message: 'no CEP' }],
        }),
      ),
      step('boom', async () => {
        throw new Error('forbidden: list ciliumendpoints');
      }),
      after,
    ]);

    const report = await run({ runbook: book });

    expect(stepOf(report, 'check').status).toBe('fail');
    expect(stepOf(report, 'check').findings).toHaveLength(1);
    expect(stepOf(report, 'boom')).toMatchObject({
      status: 'error',
      summary: 'forbidden: list ciliumendpoints',
    });
    expect(stepOf(report, 'after')).toMatchObject({
      status: 'skip',
      summary: 'skipped: an earlier step failed',
    });
    expect(after.run).not.toHaveBeenCalled();
    expect(report.verdict).toBe('failed');
  });

  it('reports a thrown non-Error by its text', async () => {
    const book = runbook([
      step('boom', async () => {
        throw 'exec handshake timed out';
      }),
    ]);
    const report = await run({ runbook: book });
    expect(stepOf(report, 'boom')).toMatchObject({ status: 'error', summary: 'exec handshake timed out' });
    expect(report.verdict).toBe('failed');
  });

  it('treats a step that returns status error like one that threw', async () => {
    const after = step('after', async () => outcome('pass', 'should not run'));
    const book = runbook([
      step('bad', async () => outcome('error', 'cilium-dbg status: malformed JSON')),
      after,
    ]);
    const report = await run({ runbook: book });
    expect(stepOf(report, 'after')).toMatchObject({
      status: 'skip',
      summary: 'skipped: an earlier step failed',
    });
    expect(after.run).not.toHaveBeenCalled();
    expect(report.verdict).toBe('failed');
  });

  it('ends a step that never resolves when the deadline passes, and fails the run', async () => {
    const after = step('after', async () => outcome('pass', 'should not run'));
    let signal: AbortSignal | undefined;
    const book = runbook([
      step('hang', (ctx) => {
        signal = ctx.signal;
        return new Promise<Outcome>(() => {});
      }),
      after,
    ]);

    const started = performance.now();
    const report = await run({ runbook: book, deadlineMs: 200 });
    const elapsed = performance.now() - started;

    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(5_000);
    expect(signal?.aborted).toBe(true);
    expect(stepOf(report, 'hang').status).toBe('error');
    expect(stepOf(report, 'hang').summary).toMatch(/deadline passed/);
    expect(stepOf(report, 'after')).toMatchObject({
      status: 'skip',
      summary: 'skipped: an earlier step failed',
    });
    expect(after.run).not.toHaveBeenCalled();
    expect(report.verdict).toBe('failed');
  });

  it('ends at its deadline when a stop signal is given too, however often memory is collected', async () => {
    // Given a stop (the CLI's Ctrl-C), the deadline reaches the step only through the two joined.
    const book = runbook([
      step(
        'slow',
        () => new Promise<Outcome>((resolve) => setTimeout(() => resolve(outcome('pass', 'late')), 3_000)),
      ),
    ]);
    const stopCollecting = collectingGarbage();
    try {
      const started = performance.now();
      const report = await run({ runbook: book, deadlineMs: 200, signal: new AbortController().signal });
      expect(stepOf(report, 'slow').summary).toMatch(/deadline passed/);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      stopCollecting();
    }
  });

  it('says "deadline passed" even when the step gives up on the abort with its own error', async () => {
    const book = runbook([
      step(
        'listens',
        (ctx) =>
          new Promise<Outcome>((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => reject(new Error('socket closed')));
          }),
      ),
    ]);
    const report = await run({ runbook: book, deadlineMs: 100 });
    expect(stepOf(report, 'listens').summary).toMatch(/deadline passed/);
    expect(report.verdict).toBe('failed');
  });

  it('a stop from outside (Ctrl-C) ends a step that never resolves at once, and rejects with its reason', async () => {
    const after = step('after', async () => outcome('pass', 'should not run'));
    let signal: AbortSignal | undefined;
    const book = runbook([
      step('hang', (ctx) => {
        signal = ctx.signal;
        return new Promise<Outcome>(() => {});
      }),
      after,
    ]);
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('stopped by Ctrl-C (pid 7 on laptop)')), 50);
    const started = performance.now();
    await expect(run({ runbook: book, signal: stop.signal })).rejects.toThrow(
      'stopped by Ctrl-C (pid 7 on laptop)',
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(signal?.aborted).toBe(true);
    expect(after.run).not.toHaveBeenCalled();
  });

  it('validates params before anything runs: InvalidParamsError names the field', async () => {
    const look = step('look', async () => outcome('pass', 'ok'));
    const book: Runbook<Params, State> = {
      ...runbook([look]),
      params: z.object({
        namespace: z.string(),
        limit: z
          .object({ maxAgeMinutes: z.number().int().positive().default(5) })
          .default({ maxAgeMinutes: 5 }),
      }) as unknown as z.ZodType<Params>,
    };

    const wrongType = run({ runbook: book, params: { namespace: 7 } });
    await expect(wrongType).rejects.toBeInstanceOf(InvalidParamsError);
    await expect(wrongType).rejects.toThrow(/^invalid parameters for runbook test-runbook: namespace: /);
    await expect(run({ runbook: book })).rejects.toThrow(/namespace: /);
    await expect(
      run({ runbook: book, params: { namespace: 'shop', limit: { maxAgeMinutes: -1 } } }),
    ).rejects.toThrow(/limit\.maxAgeMinutes: /);
    expect(look.run).not.toHaveBeenCalled();

    await run({ runbook: book, params: { namespace: 'shop' } });
    expect(look.run).toHaveBeenCalledOnce();
    expect(look.run.mock.calls[0]?.[0]?.params).toEqual({
      namespace: 'shop',
      limit: { maxAgeMinutes: 5 },
    });
  });

  it("reads text params as the schema wants them (a team runbook's params reach the worker as Slack typed them)", async () => {
    const look = step('look', async () => outcome('pass', 'ok'));
    const book: Runbook<Params, State> = {
      ...runbook([look]),
      params: z.object({
        maxNotReady: z.int().min(0),
        nodes: z.array(z.string()),
      }) as unknown as z.ZodType<Params>,
    };
    await run({ runbook: book, params: { maxNotReady: '1', nodes: 'a,b' } });
    expect(look.run.mock.calls[0]?.[0]?.params).toEqual({ maxNotReady: 1, nodes: ['a', 'b'] });
  });

  it('gives every finding its fingerprint of (cluster, runbook, code, target), whatever the message', async () => {
    const findings = (message: string): Finding[] => [
      { code: 'UNMANAGED_POD', target: 'shop/a', severity: 'warning', message: `shop/a ${message}` },
      { code: 'UNMANAGED_POD', target: 'shop/b', severity: 'warning', message: `shop/b ${message}` },
    ];
    const book = (message: string) =>
      runbook(
        [step('check', async () => outcome('fail', 'two', { findings: findings(message) }))],
        'unmanaged-pods',
      );

    const first = await run({ runbook: book('has no CEP') });
    const second = await run({ runbook: book('still has no CEP after 10 minutes') });

    const prints = (report: Report) => stepOf(report, 'check').findings.map((f) => f.fingerprint);
    expect(prints(first)).toEqual([
      fingerprint('offline', 'unmanaged-pods', 'UNMANAGED_POD', 'shop/a'),
      fingerprint('offline', 'unmanaged-pods', 'UNMANAGED_POD', 'shop/b'),
    ]);
    expect(prints(second)).toEqual(prints(first));
    expect(new Set(prints(first)).size).toBe(2);
    expect(stepOf(second, 'check').findings[0]?.message).toBe('shop/a still has no CEP after 10 minutes');
  });

  it('reports timings from the injected clock, each step with its duration, and the run id', async () => {
    const times = [new Date('2025-03-01T10:00:00.000Z'), new Date('2025-03-01T10:00:01.500Z')];
    let calls = 0;
    const now = () => times[Math.min(calls++, times.length - 1)] as Date;
    const book = runbook([
      step('slow', async () => {
        await sleep(60);
        return outcome('pass', 'slow');
      }),
      step('fast', async () => outcome('pass', 'fast')),
    ]);

    const report = await run({ runbook: book, now, runId: 'run-42' });

    expect(report.runId).toBe('run-42');
    expect(report.runbook).toBe('test-runbook');
    expect(report.cluster).toBe('offline');
    expect(report.mode).toBe('dry-run');
    expect(report.timings).toEqual({
      startedAt: '2025-03-01T10:00:00.000Z',
      finishedAt: '2025-03-01T10:00:01.500Z',
      durationMs: 1500,
    });
    expect(stepOf(report, 'slow').durationMs).toBeGreaterThanOrEqual(50);
    expect(stepOf(report, 'fast').durationMs).toBeGreaterThanOrEqual(0);
    expect(stepOf(report, 'fast').durationMs).toBeLessThan(50);

    const other = await run({ runbook: book });
    expect(other.runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Date.parse(other.timings.finishedAt)).toBeGreaterThanOrEqual(Date.parse(other.timings.startedAt));
  });

  it('in approve mode, a write step with nothing to plan does not stop the run', async () => {
    const after = step('verify', async () => outcome('pass', 'verified'));
    const book = runbook([step('act', async () => outcome('pass', 'nothing to do'), true), after]);
    const report = await run({ runbook: book, mode: 'approve' });
    expect(after.run).toHaveBeenCalledOnce();
    expect(report.verdict).toBe('healthy');
  });
});

describe('runRunbook: modes, against the simulator', () => {
  let current: SimUnderTest;
  let planted: UnmanagedPodsPlan;

  beforeEach(async () => {
    current = await startScenario(['unmanaged-pods']);
    planted = current.plan.unmanagedPods as UnmanagedPodsPlan;
  });
  afterEach(() => current.sim.close());

  const keyOf = (pod: PodRef) => `${pod.namespace}/${pod.name}`;

  /** Every pod uid in the cluster, through the API: any write changes this set. */
  async function podUids(): Promise<string[]> {
    const pods = await current.access.kube.list(RESOURCES.pods, { project: 'metadata' });
    return pods.map((pod) => pod.metadata.uid).sort();
  }

  async function stillThere(pod: PodRef): Promise<boolean> {
    try {
      return (
        (await current.access.kube.get(RESOURCES.pods, pod.namespace, pod.name)).metadata.uid === pod.uid
      );
    } catch (error) {
      if ((error as { kind?: string }).kind === 'not-found') return false;
      throw error;
    }
  }

  /** check → restart (writes, through the actuator) → verify (reads the API again). */
  function evictionRunbook(targets: PodRef[]) {
    const verify = step('verify', async () => {
      const left: Finding[] = [];
      for (const pod of targets) {
        if (await stillThere(pod))
          left.push({
            code: 'UNMANAGED_POD',
            target: keyOf(pod),
            severity: 'warning',
            message: 'still there',
          });
      }
      return outcome(left.length ? 'fail' : 'pass', `${left.length} left`, { findings: left });
    });
    const book = runbook([
      step('check', async (ctx) => {
        ctx.state.set('targets', targets);
        return outcome('fail', `${targets.length} unmanaged`, {
          findings: targets.map((pod) => ({
            code: 'UNMANAGED_POD',
            target: keyOf(pod),
            severity: 'warning' as const,
            message: `${keyOf(pod)} has no CiliumEndpoint`,
          })),
        });
      }),
      step(
        'restart',
        async (ctx) => {
          const plan: PlannedAction[] = [];
          const done: DoneAction[] = [];
          for (const pod of ctx.state.get('targets') as PodRef[]) {
            plan.push({ action: 'evict-pod', target: keyOf(pod), reason: 'no CiliumEndpoint', uid: pod.uid });
            done.push(await ctx.actuator.evictPod(pod, 'no CiliumEndpoint'));
          }
          return outcome('pass', `${done.length} handled`, { plan, done });
        },
        true,
      ),
      verify,
    ]);
    return { book, verify };
  }

  it('approve: plans the first write step ("needs approval"), stops there, and writes nothing', async () => {
    const targets = planted.evictable.slice(0, 2);
    const { book, verify } = evictionRunbook(targets);
    const before = await podUids();

    const report = await runRunbook({ runbook: book, access: current.access, mode: 'approve' });

    expect(report.verdict).toBe('needs-approval');
    expect(stepOf(report, 'check').status).toBe('fail');
    const restart = stepOf(report, 'restart');
    expect(restart.plan.map((p) => p.target)).toEqual(targets.map(keyOf));
    expect(restart.done).toHaveLength(2);
    for (const done of restart.done) {
      expect(done.outcome).toBe('planned');
      expect(done.detail).toMatch(/^needs approval/);
    }
    expect(stepOf(report, 'verify')).toMatchObject({ status: 'skip', summary: 'waiting for approval' });
    expect(verify.run).not.toHaveBeenCalled();
    expect(await podUids()).toEqual(before);
  });

  it('approve, resumed with approved keys: acts only on the approved ones', async () => {
    const [approvedPod, otherPod] = planted.evictable as [PodRef, PodRef];
    const { book, verify } = evictionRunbook([approvedPod, otherPod]);

    const report = await runRunbook({
      runbook: book,
      access: current.access,
      mode: 'approve',
      approved: [`evict-pod:${keyOf(approvedPod)}`],
    });

    const restart = stepOf(report, 'restart');
    expect(restart.done.find((d) => d.target === keyOf(approvedPod))).toMatchObject({ outcome: 'done' });
    expect(restart.done.find((d) => d.target === keyOf(otherPod))).toMatchObject({
      outcome: 'planned',
      detail: expect.stringMatching(/^needs approval/),
    });
    expect(await stillThere(approvedPod)).toBe(false);
    expect(await stillThere(otherPod)).toBe(true);
    expect(verify.run).toHaveBeenCalledOnce();
    expect(stepOf(report, 'verify').findings.map((f) => f.target)).toEqual([keyOf(otherPod)]);
    expect(report.verdict).toBe('degraded');
  });

  it('approve, resumed with every key approved: remediated', async () => {
    const targets = planted.evictable.slice(0, 2);
    const { book } = evictionRunbook(targets);
    const report = await runRunbook({
      runbook: book,
      access: current.access,
      mode: 'approve',
      approved: targets.map((pod) => `evict-pod:${keyOf(pod)}`),
    });
    expect(stepOf(report, 'restart').done.map((d) => d.outcome)).toEqual(['done', 'done']);
    expect(report.verdict).toBe('remediated');
  });

  it('dry-run: the write step plans, nothing is written, and the later steps still run', async () => {
    const targets = planted.evictable.slice(0, 2);
    const { book, verify } = evictionRunbook(targets);
    const before = await podUids();

    const report = await runRunbook({ runbook: book, access: current.access, mode: 'dry-run' });

    expect(stepOf(report, 'restart').done.map((d) => [d.outcome, d.detail])).toEqual([
      ['planned', 'dry-run: no CiliumEndpoint'],
      ['planned', 'dry-run: no CiliumEndpoint'],
    ]);
    expect(verify.run).toHaveBeenCalledOnce();
    expect(report.verdict).toBe('degraded');
    expect(await podUids()).toEqual(before);
  });

  it('auto: acts within the limits passed to the run, and the verify step decides the verdict', async () => {
    const targets = planted.evictable.slice(0, 2);
    const { book } = evictionRunbook(targets);

    const capped = await runRunbook({
      runbook: book,
      access: current.access,
      mode: 'auto',
      limits: { maxEvictionsPerRun: 1 },
    });

    expect(stepOf(capped, 'restart').done.map((d) => [d.outcome, d.detail])).toEqual([
      ['done', 'no CiliumEndpoint'],
      ['skipped', 'over the per-run cap of 1'],
    ]);
    expect(capped.verdict).toBe('degraded');

    const { book: rest } = evictionRunbook([targets[1] as PodRef]);
    const finished = await runRunbook({ runbook: rest, access: current.access, mode: 'auto' });
    expect(finished.verdict).toBe('remediated');
  });

  it('auto: a step that outlives the deadline cannot write after the run has ended', async () => {
    const pod = planted.evictable[0] as PodRef;
    let late: Promise<DoneAction> | undefined;
    const book = runbook([
      step(
        'restart',
        async (ctx) => {
          // Ignores ctx.signal, as a careless step might, and acts after the deadline.
          await sleep(300);
          late = ctx.actuator.evictPod(pod, 'no CiliumEndpoint');
          return outcome('pass', 'evicted', { done: [await late] });
        },
        true,
      ),
    ]);

    const report = await runRunbook({ runbook: book, access: current.access, mode: 'auto', deadlineMs: 100 });
    expect(stepOf(report, 'restart').summary).toMatch(/deadline passed/);
    await vi.waitFor(() => expect(late).toBeDefined(), { timeout: 2_000 });

    expect(await late).toMatchObject({
      outcome: 'skipped',
      detail: expect.stringMatching(/deadline passed/),
    });
    expect(await stillThere(pod)).toBe(true);
  });

  it('a stop ends the commands a step runs in the agents, even one that does not pass the signal on', async () => {
    const own = await startScenario(['healthy']);
    try {
      const book = runbook([
        step('watch', async (ctx) => {
          const [agent] = await ctx.cilium.agents();
          // A monitor bounded only by itself, as a step that forgets ctx.signal would run it.
          await ctx.cilium.execFirst(agent as never, [['timeout', '60', 'cilium-dbg', 'monitor']], {
            timeoutMs: 75_000,
          });
          return outcome('pass', 'watched');
        }),
      ]);
      const stop = new AbortController();
      const stopped = runRunbook({ runbook: book, access: own.access, mode: 'dry-run', signal: stop.signal });
      await sleep(500);
      stop.abort(new Error('stopped'));
      await expect(stopped).rejects.toThrow('stopped');
    } finally {
      // The simulated API server closes only once every exec connection has: the monitor ended.
      const closing = performance.now();
      await own.sim.close();
      expect(performance.now() - closing).toBeLessThan(3_000);
    }
  });

  it('auto: the brake given to the run is asked before each write', async () => {
    const targets = planted.evictable.slice(0, 1);
    const { book } = evictionRunbook(targets);
    const tryWrite = vi.fn(async () => false);
    const before = await podUids();

    const report = await runRunbook({
      runbook: book,
      access: current.access,
      mode: 'auto',
      brake: { tryWrite },
    });

    expect(stepOf(report, 'restart').done[0]).toMatchObject({
      outcome: 'blocked',
      detail: expect.stringMatching(/^brake engaged/),
    });
    expect(tryWrite).toHaveBeenCalledWith(current.access.name);
    expect(await podUids()).toEqual(before);
  });
});
