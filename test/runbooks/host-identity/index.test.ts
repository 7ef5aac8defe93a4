import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioOptions } from '../../../sim/scenarios/index.ts';
import { RESPONDER_RULES } from '../../../src/cluster/permissions.ts';
import { actionKey } from '../../../src/engine/actuator.ts';
import { summarize } from '../../../src/report/summary.ts';
import { type SimUnderTest, simAccess, startScenario } from '../../helpers/sim-access.ts';
import { agentUids, enableIptablesRules, FAST, run, step, targets } from './run-helpers.ts';

let current: SimUnderTest | undefined;

async function start(scenarios: string[], scenario: ScenarioOptions = {}, readyDelayMs?: number) {
  current = await startScenario(scenarios, {
    scenario,
    ...(readyDelayMs === undefined ? {} : { sim: { controllers: { readyDelayMs } } }),
  });
  return current;
}

afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

const sorted = (values: Iterable<string>) => [...values].sort();

describe('host-identity on host-identity-world', () => {
  it.each<[string, ScenarioOptions, string]>([
    ['nft, 1.16 marks', {}, 'nft backend'],
    ['legacy iptables', { iptablesBackend: 'legacy' }, 'legacy backend'],
    ['1.14 marks', { iptablesMarkVariant: 'v1.14' }, 'nft backend'],
    ['only the old cilium CLI', { agentCli: 'cilium-only' }, 'nft backend'],
    ['no Cilium chains at all', { ciliumChainsWithoutRules: false }, 'no CILIUM_OUTPUT chain'],
  ])('finds exactly the planted config, nodes and pods (%s)', async (_name, options, evidence) => {
    const { plan, access } = await start(['host-identity-world'], options);
    const planted = plan.hostIdentity;
    const report = await run(access);

    expect(report.verdict).toBe('degraded');
    expect(targets(report, 'IPTABLES_RULES_DISABLED')).toEqual(['cilium-config']);
    expect(targets(report, 'HOST_MARK_RULE_MISSING')).toEqual(sorted(planted?.nodesWithDrops ?? []));
    expect(targets(report, 'POLICY_DENIED_FROM_HOST')).toEqual(
      sorted(planted?.failingPods.map((p) => `${p.namespace}/${p.name}`) ?? []),
    );
    const denied = step(report, 'policy-drops').findings;
    expect(denied.every((f) => f.message.includes(`NetworkPolicy ${planted?.networkPolicy}`))).toBe(true);
    expect(denied.every((f) => f.message.includes(`:${planted?.port} tcp SYN`))).toBe(true);
    expect(step(report, 'host-mark-rule').evidence.every((e) => e.text.includes(evidence))).toBe(true);
    // The config still says false: a restart would not help, so none is planned.
    expect(step(report, 'restart-agents')).toMatchObject({ status: 'skip', plan: [], done: [] });
    expect(step(report, 'restart-agents').summary).toMatch(/set it to "true" first/);
  });
});

describe('host-identity when the denied source is not a node', () => {
  it('files the drops as POLICY_DENIED_FROM_WORLD and blames no host mark for them', async () => {
    const { plan, access, sim } = await start(['host-identity-world']);
    const agents = [...sim.cluster.agents.values()];
    expect(agents.some((agent) => agent.drops.length > 0)).toBe(true);
    // A pod address, not a node's: the same drops, sent from inside the cluster.
    for (const agent of agents)
      for (const drop of agent.drops) drop.source = drop.source.replace(/^[^:]+/, '10.99.7.7');
    const report = await run(access);
    expect(targets(report, 'POLICY_DENIED_FROM_HOST')).toEqual([]);
    expect(targets(report, 'POLICY_DENIED_FROM_WORLD')).toEqual(
      sorted(plan.hostIdentity?.failingPods.map((p) => `${p.namespace}/${p.name}`) ?? []),
    );
    const denied = step(report, 'policy-drops').findings;
    expect(denied.every((f) => f.message.includes("from 10.99.7.7, which is no node's address"))).toBe(true);
    expect(denied.every((f) => !f.fix?.includes('Restore the host mark rule'))).toBe(true);
  });
});

describe('host-identity on clusters without the incident', () => {
  it.each<[string, string[], ScenarioOptions]>([
    ['healthy', ['healthy'], {}],
    [
      'healthy, legacy iptables, 1.14 marks',
      ['healthy'],
      { iptablesBackend: 'legacy', iptablesMarkVariant: 'v1.14' },
    ],
    [
      'healthy, legacy iptables, 1.16 marks',
      ['healthy'],
      { iptablesBackend: 'legacy', iptablesMarkVariant: 'v1.16' },
    ],
    ['unmanaged-pods', ['unmanaged-pods'], {}],
    ['cgroup-private-ns', ['cgroup-private-ns'], {}],
  ])('reports healthy with zero findings on %s', async (_name, scenarios, options) => {
    const { access } = await start(scenarios, options);
    const report = await run(access);
    expect(report.steps.flatMap((s) => s.findings)).toEqual([]);
    expect(report.verdict).toBe('healthy');
    expect(step(report, 'host-mark-rule').summary).toMatch(/^host mark rule present on all \d+ nodes$/);
  });

  it('finds only its own incident on `all`', async () => {
    const { plan, access } = await start(['all']);
    const report = await run(access);
    const codes = new Set(report.steps.flatMap((s) => s.findings.map((f) => f.code)));
    expect(sorted(codes)).toEqual([
      'HOST_MARK_RULE_MISSING',
      'IPTABLES_RULES_DISABLED',
      'POLICY_DENIED_FROM_HOST',
    ]);
    expect(targets(report, 'HOST_MARK_RULE_MISSING')).toEqual(sorted(plan.nodes));
    expect(targets(report, 'POLICY_DENIED_FROM_HOST')).toEqual(
      sorted(plan.hostIdentity?.failingPods.map((p) => `${p.namespace}/${p.name}`) ?? []),
    );
  });
});

describe('host-identity agent restarts (config fixed, agents not restarted)', () => {
  it('stops for approval with a restart plan and restarts nothing', async () => {
    const { sim, access } = await start(['host-identity-world']);
    await enableIptablesRules(sim);
    const before = await agentUids(sim);
    const report = await run(access, { mode: 'approve', limits: { maxAgentRestartsPerRun: 4 } });

    expect(report.verdict).toBe('needs-approval');
    expect(targets(report, 'IPTABLES_RULES_DISABLED')).toEqual([]);
    expect(targets(report, 'HOST_MARK_RULE_MISSING')).toEqual(sorted(before.keys()));
    const restart = step(report, 'restart-agents');
    expect(restart.plan.map((p) => [p.action, p.target, p.uid])).toEqual(
      sorted(before.keys()).map((node) => ['restart-agent', node, before.get(node)]),
    );
    expect(restart.done.every((d) => d.outcome === 'planned')).toBe(true);
    expect(step(report, 'verify-rule').status).toBe('skip');
    expect(await agentUids(sim)).toEqual(before);
  });

  it('restarts exactly the approved agents when resumed, and verifies the rule on them', async () => {
    const { sim, access } = await start(['host-identity-world']);
    await enableIptablesRules(sim);
    const limits = { maxAgentRestartsPerRun: 4 };
    const first = await run(access, { mode: 'approve', limits });
    const planned = step(first, 'restart-agents').plan;
    const approved = [planned[0], planned[2]].map((p) => p?.target as string);
    const before = await agentUids(sim);

    const resumed = await run(simAccess(sim), {
      mode: 'approve',
      limits,
      approved: approved.map((node) => actionKey('restart-agent', node)),
    });

    const after = await agentUids(sim);
    const changed = [...before].filter(([node, uid]) => after.get(node) !== uid).map(([node]) => node);
    expect(sorted(changed)).toEqual(sorted(approved));
    const done = step(resumed, 'restart-agents').done.filter((d) => d.outcome === 'done');
    expect(sorted(done.map((d) => d.target))).toEqual(sorted(approved));
    const verify = step(resumed, 'verify-rule');
    expect(verify.summary).toBe(
      'host mark rule in place on 2 of 2 restarted nodes; 2 of 2 pods pass their probes again',
    );
    // The probe symptoms are fixed where the rule came back, and only there.
    const symptoms = summarize(resumed).found.filter((p) => p.code === 'POLICY_DENIED_FROM_HOST');
    const onApproved = (target: string) =>
      (verify.cleared ?? []).some((c) => c.target === target && approved.some((n) => c.how.includes(n)));
    const fixed = symptoms.filter((p) => p.state === 'fixed').map((p) => p.target);
    expect(symptoms).toHaveLength(4);
    expect(fixed).toHaveLength(2);
    expect(fixed.every(onApproved)).toBe(true);
    // The two nodes nobody approved still lack the rule: the run does not claim a fix.
    expect(targets(resumed, 'HOST_MARK_RULE_MISSING', 'verify-rule')).toEqual(
      sorted([...before.keys()].filter((node) => !approved.includes(node))),
    );
    expect(resumed.verdict).toBe('degraded');
  });

  it('is remediated in auto mode once every restart is approved', async () => {
    const { sim, access } = await start(['host-identity-world']);
    await enableIptablesRules(sim);
    const nodes = sorted((await agentUids(sim)).keys());
    const report = await run(access, {
      mode: 'auto',
      limits: { maxAgentRestartsPerRun: nodes.length },
      approved: nodes.map((node) => actionKey('restart-agent', node)),
    });
    expect(step(report, 'restart-agents').done.map((d) => d.outcome)).toEqual(nodes.map(() => 'done'));
    expect(step(report, 'verify-rule')).toMatchObject({ status: 'pass', findings: [] });
    expect(report.verdict).toBe('remediated');
    // The rules are back and the pods whose probes they dropped are Ready again: nothing is left open.
    const summary = summarize(report);
    expect(summary.found.map((p) => p.code)).toContain('POLICY_DENIED_FROM_HOST');
    expect(summary.open).toEqual([]);
    expect(summary.diagnosis).toMatch(/^\d+ of \d+ fixed and verified \(4 agents restarted\)\.$/);
  });

  it('stays degraded when the restarted agent does not come back Ready in time', async () => {
    const { sim, access } = await start(['host-identity-world'], {}, 600_000);
    await enableIptablesRules(sim);
    const [node] = sorted((await agentUids(sim)).keys());
    const report = await run(access, {
      mode: 'auto',
      params: { ...FAST, verifyTimeoutSeconds: 1 },
      approved: [actionKey('restart-agent', node as string)],
    });
    const verify = step(report, 'verify-rule');
    expect(verify.findings.find((f) => f.target === node)?.message).toMatch(
      /no Ready replacement agent within 1 s/,
    );
    expect(report.verdict).toBe('degraded');
  });

  it('in auto mode without approval, plans within the cap and deletes nothing', async () => {
    const { sim, access } = await start(['host-identity-world']);
    await enableIptablesRules(sim);
    const before = await agentUids(sim);
    const report = await run(access, { mode: 'auto' });
    const restart = step(report, 'restart-agents');
    expect(restart.done.map((d) => d.outcome)).toEqual(['planned', 'skipped', 'skipped', 'skipped']);
    expect(restart.plan.map((p) => p.target)).toEqual([sorted(before.keys())[0]]);
    expect(step(report, 'verify-rule').status).toBe('skip');
    expect(report.verdict).toBe('degraded');
    expect(await agentUids(sim)).toEqual(before);
  });
});

describe('host-identity without exec permission', () => {
  it('fails with forbidden: create pods/exec', async () => {
    const { sim } = await start(['host-identity-world']);
    const rules = RESPONDER_RULES.filter((rule) => !rule.resources.includes('pods/exec'));
    const grant = sim.issueToken(
      'no-exec',
      rules.map((rule) => ({ ...rule })),
    );
    const report = await run(simAccess(sim, grant.token));
    expect(report.verdict).toBe('failed');
    const check = step(report, 'host-mark-rule');
    expect(check.status).toBe('error');
    // One reason for all four agents, not four copies of the API server's message.
    expect(check.summary).toMatch(
      /^could not check 4 of 4 agents: forbidden: create pods\/exec \([^()]+, \+1 more\)$/,
    );
    expect(step(report, 'policy-drops').status).toBe('skip');
  });
});
