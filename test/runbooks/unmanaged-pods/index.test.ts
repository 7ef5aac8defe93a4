import { afterEach, describe, expect, it } from 'vitest';
import { unmanagedPods } from '../../../runbooks/unmanaged-pods/index.ts';
import type { ScenarioOptions } from '../../../sim/scenarios/options.ts';
import type { PodRef, UnmanagedPodsPlan } from '../../../sim/scenarios/plan.ts';
import { RESPONDER_RULES } from '../../../src/cluster/permissions.ts';
import { type ClusterAccess, KubeError, RESOURCES } from '../../../src/cluster/types.ts';
import { InvalidParamsError, runRunbook } from '../../../src/engine/run.ts';
import type { Limits, Mode, Report, StepReport } from '../../../src/engine/types.ts';
import { type SimUnderTest, simAccess, startScenario } from '../../helpers/sim-access.ts';

let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

async function start(
  scenario: string,
  options: ScenarioOptions = {},
): Promise<SimUnderTest & { planted: UnmanagedPodsPlan | undefined }> {
  current = await startScenario([scenario], { scenario: options });
  return { ...current, planted: current.plan.unmanagedPods };
}

function run(access: ClusterAccess, mode: Mode, extra: { limits?: Partial<Limits>; params?: unknown } = {}) {
  return runRunbook({ runbook: unmanagedPods, access, mode, ...extra });
}

function step(report: Report, id: string): StepReport {
  const found = report.steps.find((s) => s.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
}

const keyOf = (pod: PodRef) => `${pod.namespace}/${pod.name}`;
const keys = (pods: readonly PodRef[]) => pods.map(keyOf).sort();
const targets = (s: StepReport, code: string) =>
  s.findings
    .filter((finding) => finding.code === code)
    .map((finding) => finding.target)
    .sort();
const messageOf = (s: StepReport, target: string) =>
  s.findings.find((f) => f.target === target)?.message ?? '';
const doneFor = (report: Report, pod: PodRef) =>
  step(report, 'restart-unmanaged').done.find((d) => d.target === keyOf(pod));

/** Every pod uid in the cluster, through the API: a write of any kind changes this set. */
async function podUids(access: ClusterAccess): Promise<string[]> {
  const pods = await access.kube.list(RESOURCES.pods, { project: 'metadata' });
  return pods.map((pod) => pod.metadata.uid).sort();
}

/** The planted pods the responder must never restart, with the reason it gives for each. */
function leftAlone(planted: UnmanagedPodsPlan): PodRef[] {
  return [...planted.blockedByBudget, ...planted.onNotReadyAgent, ...planted.mirror];
}

function expectReasons(s: StepReport, planted: UnmanagedPodsPlan): void {
  for (const pod of planted.blockedByBudget) {
    expect(messageOf(s, keyOf(pod))).toMatch(/; eviction blocked: .*disruption budget/);
  }
  for (const pod of planted.onNotReadyAgent) {
    expect(messageOf(s, keyOf(pod))).toContain(
      `; node ${pod.node} still has the node.cilium.io/agent-not-ready taint`,
    );
  }
  for (const pod of planted.mirror) {
    expect(messageOf(s, keyOf(pod))).toContain('(static pod); only the kubelet on its node can restart it');
  }
}

describe('unmanaged-pods runbook on the unmanaged-pods scenario', () => {
  it('dry-run finds exactly the planted unmanaged pods, plans the evictable ones, and writes nothing', async () => {
    const { access, planted } = await start('unmanaged-pods');
    if (!planted) throw new Error('scenario planted nothing');
    const before = await podUids(access);

    const report = await run(access, 'dry-run');

    expect(report.verdict).toBe('degraded');
    const found = step(report, 'find-unmanaged');
    // Young pods (within the grace period) are evidence, not findings; hostNetwork pods never appear.
    expect(targets(found, 'UNMANAGED_POD')).toEqual(keys([...planted.evictable, ...leftAlone(planted)]));
    expect(found.findings.every((f) => f.severity === 'critical')).toBe(true);
    expect(found.evidence.map((e) => e.text).join('\n')).toContain(keys(planted.young)[0]);
    const everything = report.steps.flatMap((s) => s.findings.map((f) => f.target));
    for (const pod of planted.hostNetwork) expect(everything).not.toContain(keyOf(pod));

    const restart = step(report, 'restart-unmanaged');
    expect(restart.plan.map((p) => p.target).sort()).toEqual(
      keys([...planted.evictable, ...planted.blockedByBudget]),
    );
    for (const pod of planted.evictable) expect(doneFor(report, pod)).toMatchObject({ outcome: 'planned' });
    for (const pod of planted.blockedByBudget) {
      expect(doneFor(report, pod)?.outcome).toBe('blocked');
      expect(doneFor(report, pod)?.detail).toMatch(/disruption budget/);
    }
    // The findings say what the plan says: never "restarts it" for a pod its budget protects.
    const said = (pod: PodRef) => restart.findings.find((f) => f.target === keyOf(pod));
    for (const pod of planted.evictable)
      expect(said(pod)?.message).toContain('dry-run: the responder would restart it by eviction');
    for (const pod of planted.blockedByBudget) {
      expect(said(pod)?.message).toMatch(/eviction blocked: .*disruption budget/);
      expect(said(pod)?.fix).toContain(`kubectl -n ${pod.namespace} get pdb`);
    }
    expect(step(report, 'verify-replacements').status).toBe('skip');
    expect(await podUids(access)).toEqual(before);
  });

  it('reports the operator watcher settings and which unmanaged pods its selector misses', async () => {
    const { access, planted } = await start('unmanaged-pods');
    if (!planted) throw new Error('scenario planted nothing');
    const watcher = step(await run(access, 'dry-run'), 'operator-watcher');
    expect(watcher.findings.map((f) => [f.code, f.target, f.severity])).toEqual([
      ['OPERATOR_SELECTOR_NARROW', 'cilium-config', 'warning'],
    ]);
    const unmanaged = planted.evictable.length + leftAlone(planted).length;
    expect(watcher.findings[0]?.message).toMatch(
      `pod-restart-selector "k8s-app=kube-dns" misses ${unmanaged} of ${unmanaged} unmanaged pods (`,
    );
    expect(watcher.evidence.map((e) => e.text)).toEqual([
      'unmanaged-pod-watcher-interval="15"',
      'pod-restart-selector="k8s-app=kube-dns"',
    ]);
  });

  it('auto evicts only the evictable pods, leaves the rest with reasons, and every replacement gets a CEP', async () => {
    const { access, planted } = await start('unmanaged-pods');
    if (!planted) throw new Error('scenario planted nothing');
    const before = new Set(await podUids(access));
    const owners = new Map<string, string>();
    for (const pod of planted.evictable) {
      const object = await access.kube.get(RESOURCES.pods, pod.namespace, pod.name);
      owners.set(pod.uid, object.metadata.ownerReferences?.[0]?.uid ?? '');
    }

    const report = await run(access, 'auto');

    expect(report.verdict).toBe('degraded');
    const restart = step(report, 'restart-unmanaged');
    expect(
      restart.done
        .filter((d) => d.outcome === 'done')
        .map((d) => d.target)
        .sort(),
    ).toEqual(keys(planted.evictable));
    expect(restart.done.some((d) => d.outcome === 'failed')).toBe(false);
    for (const pod of planted.blockedByBudget) expect(doneFor(report, pod)?.outcome).toBe('blocked');

    const after = new Set(await podUids(access));
    for (const pod of planted.evictable) expect(after.has(pod.uid)).toBe(false);
    for (const pod of [...planted.hostNetwork, ...leftAlone(planted), ...planted.young])
      expect(after.has(pod.uid)).toBe(true);

    // Each evicted pod's controller made exactly one new pod, and it has its CiliumEndpoint.
    for (const pod of planted.evictable) {
      const siblings = await access.kube.list(RESOURCES.pods, {
        namespace: pod.namespace,
        project: 'metadata',
      });
      const replacements = siblings.filter(
        (p) =>
          !before.has(p.metadata.uid) &&
          p.metadata.ownerReferences?.some((o) => o.uid === owners.get(pod.uid)),
      );
      expect(replacements, keyOf(pod)).toHaveLength(1);
      const replacement = replacements[0]?.metadata;
      const endpoint = await access.kube.get(
        RESOURCES.ciliumendpoints,
        pod.namespace,
        replacement?.name ?? '',
      );
      expect(endpoint.metadata.name).toBe(replacement?.name);
    }

    const verify = step(report, 'verify-replacements');
    const evicted = planted.evictable.length;
    expect(verify.summary).toBe(
      `CiliumEndpoint on ${evicted} of ${evicted} replacements; ${leftAlone(planted).length} unmanaged pods remain`,
    );
    expect(targets(verify, 'UNMANAGED_POD')).toEqual(keys(leftAlone(planted)));
    expect(targets(verify, 'REPLACEMENT_UNMANAGED')).toEqual([]);
    expectReasons(verify, planted);
  });

  it('a second auto run finds only what it could not or would not touch, each with its reason', async () => {
    const { access, planted } = await start('unmanaged-pods');
    if (!planted) throw new Error('scenario planted nothing');
    await run(access, 'auto');

    const second = await run(access, 'auto');

    expect(second.verdict).toBe('degraded');
    expect(targets(step(second, 'find-unmanaged'), 'UNMANAGED_POD')).toEqual(keys(leftAlone(planted)));
    expect(step(second, 'restart-unmanaged').done.map((d) => [d.target, d.outcome])).toEqual(
      planted.blockedByBudget.map((pod) => [keyOf(pod), 'blocked']),
    );
    const verify = step(second, 'verify-replacements');
    expect(targets(verify, 'UNMANAGED_POD')).toEqual(keys(leftAlone(planted)));
    expectReasons(verify, planted);
  });

  it('stops at the per-run cap and says so for the rest', async () => {
    const { access, planted } = await start('unmanaged-pods');
    if (!planted) throw new Error('scenario planted nothing');

    const report = await run(access, 'auto', { limits: { maxEvictionsPerRun: 1 } });

    const done = step(report, 'restart-unmanaged').done;
    expect(done.filter((d) => d.outcome === 'done')).toHaveLength(1);
    const rest = done.filter((d) => d.outcome !== 'done');
    expect(rest).toHaveLength(planted.evictable.length + planted.blockedByBudget.length - 1);
    for (const d of rest)
      expect(d).toMatchObject({ outcome: 'skipped', detail: 'over the per-run cap of 1' });
    const verify = step(report, 'verify-replacements');
    for (const d of rest)
      expect(messageOf(verify, d.target)).toContain('not evicted: over the per-run cap of 1');
    expect(report.verdict).toBe('degraded');
  });

  it('in approve mode stops with the plan, and a resumed run evicts exactly what was approved', async () => {
    const { access, planted } = await start('unmanaged-pods');
    if (!planted) throw new Error('scenario planted nothing');
    const before = await podUids(access);

    const asked = await run(access, 'approve');

    expect(asked.verdict).toBe('needs-approval');
    expect(step(asked, 'verify-replacements').summary).toBe('waiting for approval');
    expect(await podUids(access)).toEqual(before);
    const [first] = planted.evictable;
    if (!first) throw new Error('nothing evictable');
    const approved = [`evict-pod:${keyOf(first)}`];
    const resumed = await runRunbook({ runbook: unmanagedPods, access, mode: 'approve', approved });

    const outcomes = step(resumed, 'restart-unmanaged').done.map((d) => [d.target, d.outcome]);
    expect(outcomes.filter(([, outcome]) => outcome === 'done')).toEqual([[keyOf(first), 'done']]);
    expect(resumed.verdict).toBe('degraded');
  });

  it('is remediated when every unmanaged pod in scope was fixed', async () => {
    const { access } = await start('unmanaged-pods');
    const report = await run(access, 'auto', { params: { namespaces: ['shop'] } });
    expect(step(report, 'restart-unmanaged').done.map((d) => d.outcome)).toEqual(['done']);
    expect(step(report, 'verify-replacements').findings).toEqual([]);
    expect(report.verdict).toBe('remediated');
  });
});

describe('operator watcher settings', () => {
  const watcherFindings = async (scenario: string, options: ScenarioOptions) => {
    const { access } = await start(scenario, options);
    const report = await run(access, 'dry-run');
    return { report, findings: step(report, 'operator-watcher').findings };
  };

  it('warns that the watcher is off while unmanaged pods wait', async () => {
    const { findings } = await watcherFindings('unmanaged-pods', { unmanagedPodWatcherInterval: '0' });
    expect(findings.map((f) => [f.code, f.severity])).toEqual([
      ['OPERATOR_RESTART_DISABLED', 'warning'],
      ['OPERATOR_SELECTOR_NARROW', 'warning'],
    ]);
    expect(findings[0]?.message).toContain('unmanaged-pod-watcher-interval=0');
    expect(findings[0]?.fix).toContain('operator.unmanagedPodWatcher.restart=true');
  });

  it('only notes an off watcher on a healthy cluster', async () => {
    const { report, findings } = await watcherFindings('healthy', { unmanagedPodWatcherInterval: '0s' });
    expect(findings.map((f) => [f.code, f.severity])).toEqual([['OPERATOR_RESTART_DISABLED', 'info']]);
    expect(report.verdict).toBe('healthy');
  });

  it('is satisfied by a selector that covers every unmanaged pod', async () => {
    const { report, findings } = await watcherFindings('unmanaged-pods', {
      unmanagedPodWatcherInterval: '15s',
      podRestartSelector: 'k8s-app!=aws-node',
    });
    expect(findings).toEqual([]);
    expect(step(report, 'operator-watcher').summary).toBe(
      'watcher on, every 15s, pod-restart-selector "k8s-app!=aws-node"; it covers all 7 unmanaged pods',
    );
  });

  it('reports a selector the operator cannot parse', async () => {
    const { findings } = await watcherFindings('healthy', { podRestartSelector: 'k8s-app in (' });
    expect(findings.map((f) => [f.code, f.target, f.severity])).toEqual([
      ['OPERATOR_CONFIG_INVALID', 'cilium-config/pod-restart-selector', 'warning'],
    ]);
  });
});

describe('unmanaged-pods runbook on other scenarios', () => {
  it('is healthy with zero findings on a healthy cluster, in dry-run and auto', async () => {
    const { access } = await start('healthy');
    for (const mode of ['dry-run', 'auto'] as const) {
      const report = await run(access, mode);
      expect(report.verdict, mode).toBe('healthy');
      expect(report.steps.flatMap((s) => s.findings)).toEqual([]);
      expect(report.steps.flatMap((s) => s.done)).toEqual([]);
    }
  });

  it('finds exactly the unmanaged-pods incident among all four', async () => {
    const { access, planted } = await start('all');
    if (!planted) throw new Error('scenario planted nothing');
    const report = await run(access, 'dry-run');
    expect(targets(step(report, 'find-unmanaged'), 'UNMANAGED_POD')).toEqual(
      keys([...planted.evictable, ...leftAlone(planted)]),
    );
    const codes = new Set(report.steps.flatMap((s) => s.findings.map((f) => f.code)));
    expect([...codes].sort()).toEqual(['OPERATOR_SELECTOR_NARROW', 'UNMANAGED_POD']);
  });

  it('fails plainly when the token may not list CiliumEndpoints', async () => {
    const { sim } = await start('unmanaged-pods');
    const rules = RESPONDER_RULES.map((rule) => ({
      ...rule,
      resources: rule.apiGroups.includes('cilium.io') ? ['ciliumnodes'] : rule.resources,
    }));
    const viewer = sim.issueToken('viewer', [
      ...rules,
      { apiGroups: ['cilium.io'], resources: ['ciliumendpoints'], verbs: ['get'] },
    ]);

    const report = await run(simAccess(sim, viewer.token), 'auto');

    expect(report.verdict).toBe('failed');
    const found = step(report, 'find-unmanaged');
    expect(found.status).toBe('error');
    expect(found.summary).toMatch(/^forbidden: list ciliumendpoints/);
    expect(found.summary).not.toMatch(/\n\s+at /);
    expect(step(report, 'operator-watcher').status).not.toBe('error');
    expect(step(report, 'restart-unmanaged').summary).toBe('skipped: an earlier step failed');
  });
});

describe('unmanaged-pods parameters', () => {
  /** An access that records any use: bad parameters must stop the run before it touches a cluster. */
  function untouchable(): { access: ClusterAccess; used: string[] } {
    const used: string[] = [];
    const record = (facade: string) =>
      new Proxy(
        {},
        {
          get(_, property) {
            used.push(`${facade}.${String(property)}`);
            throw new KubeError('unavailable', 'get', facade, 'must not be called');
          },
        },
      );
    return {
      access: { name: 'none', kube: record('kube'), cilium: record('cilium') } as ClusterAccess,
      used,
    };
  }

  it.each([
    [{ gracePeriodSeconds: -1 }, 'gracePeriodSeconds: must be 0 or more seconds'],
    [{ gracePeriodSeconds: 1.5 }, 'gracePeriodSeconds: must be a whole number of seconds'],
    [{ gracePeriodSeconds: 'soon' }, 'gracePeriodSeconds: must be a whole number of seconds'],
    [{ namespaces: [] }, 'namespaces: must name at least one namespace'],
    [{ namespaces: ['Shop'] }, 'namespaces[0]: must be a namespace name'],
    [{ namespaces: 7 }, 'namespaces: must be a list of namespace names'],
    [{ grace: 30 }, 'grace: unknown key'],
  ])('rejects %j, naming the field, before anything runs', async (params, message) => {
    const { access, used } = untouchable();
    const attempt = run(access, 'auto', { params });
    await expect(attempt).rejects.toBeInstanceOf(InvalidParamsError);
    await expect(attempt).rejects.toThrow(message);
    expect(used).toEqual([]);
  });
});
