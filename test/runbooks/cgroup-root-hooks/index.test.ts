import { afterEach, describe, expect, it } from 'vitest';
import { cgroupRootHooks } from '../../../runbooks/cgroup-root-hooks/index.ts';
import { HOOKS_NOT_ON_ROOT, HOOKS_ON_REMOVED_CGROUP } from '../../../runbooks/cgroup-root-hooks/placement.ts';
import { AGENT_CHECK_FAILED } from '../../../runbooks/cgroup-root-hooks/steps/agent-cgroup-root.ts';
import { R } from '../../../sim/cluster.ts';
import type { ScenarioOptions } from '../../../sim/scenarios/index.ts';
import { RESPONDER_RULES } from '../../../src/cluster/permissions.ts';
import type { ClusterAccess } from '../../../src/cluster/types.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import type { Report } from '../../../src/engine/types.ts';
import { type SimUnderTest, simAccess, startScenario } from '../../helpers/sim-access.ts';

let current: SimUnderTest | undefined;
afterEach(async () => {
  await current?.sim.close();
  current = undefined;
});

async function start(scenarios: string[], scenario: ScenarioOptions = {}): Promise<SimUnderTest> {
  current = await startScenario(scenarios, { scenario });
  return current;
}

function run(access: ClusterAccess, onProgress?: (step: string, done: number, total: number) => void) {
  return runRunbook({
    runbook: cgroupRootHooks,
    access,
    mode: 'dry-run',
    ...(onProgress ? { onProgress } : {}),
  });
}

function step(report: Report, id: string) {
  const found = report.steps.find((s) => s.id === id);
  if (!found) throw new Error(`no step ${id} in the report`);
  return found;
}

function flagged(report: Report): string[] {
  return report.steps
    .flatMap((s) => s.findings)
    .filter((finding) => finding.code === HOOKS_NOT_ON_ROOT)
    .map((finding) => finding.target)
    .sort();
}

describe('cgroup-root-hooks on a planted incident', () => {
  it('flags exactly the agents whose cgroup root is their own container, with both signals', async () => {
    const { plan, access } = await start(['cgroup-private-ns']);
    const progress: number[] = [];
    const report = await run(access, (id, done) => id === 'agent-cgroup-root' && progress.push(done));
    expect(report.verdict).toBe('degraded');
    expect(flagged(report)).toEqual([...(plan.cgroup?.brokenNodes ?? [])].sort());
    expect(report.steps.flatMap((s) => s.findings)).toHaveLength(plan.cgroup?.brokenNodes.length ?? -1);
    const check = step(report, 'agent-cgroup-root');
    expect(check.status).toBe('fail');
    const first = check.findings[0];
    expect(first?.severity).toBe('critical');
    expect(first?.message).toMatch(
      /has inode \d+ \(host root: 1\), cgroup namespace cgroup:\[\d+\] \(private\)/,
    );
    expect(first?.fix).toContain('cgroup.autoMount.enabled=true');
    expect(first?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(check.evidence.map((e) => e.source.split(':')[0]).sort()).toEqual(flagged(report));
    expect(check.evidence[0]?.text).toMatch(
      /^inode (?!1;)\d+ .* socket-LB hooks: connect4, .* at \/run\/cilium\/cgroupv2/,
    );
    expect(progress.at(-1)).toBe(plan.nodes.length);
  });

  it('tells a broken agent from a healthy one on the same cluster', async () => {
    const { plan, access } = await start(['cgroup-private-ns'], { brokenCgroupNodes: 1 });
    expect(plan.cgroup?.brokenNodes).toHaveLength(1);
    const report = await run(access);
    expect(flagged(report)).toEqual(plan.cgroup?.brokenNodes);
    expect(step(report, 'agent-cgroup-root').summary).toContain(`1 of ${plan.nodes.length} agents`);
  });

  it('reads the old bpftool attach-type names', async () => {
    const { plan, access } = await start(['cgroup-private-ns'], { bpftool: 'legacy', brokenCgroupNodes: 2 });
    expect(flagged(await run(access))).toEqual([...(plan.cgroup?.brokenNodes ?? [])].sort());
  });

  it('asks an agent that has only the old `cilium` CLI', async () => {
    const { plan, access } = await start(['cgroup-private-ns'], {
      agentCli: 'cilium-only',
      brokenCgroupNodes: 3,
    });
    const report = await run(access);
    expect(step(report, 'socket-lb').evidence.map((e) => e.source)).toContainEqual(
      expect.stringMatching(/: cilium status -o json$/),
    );
    expect(step(report, 'socket-lb').summary).toMatch(/^socket LB is on \(.* reports it on\)$/);
    expect(flagged(report)).toEqual([...(plan.cgroup?.brokenNodes ?? [])].sort());
  });

  it('finds the hooks an agent restarted into the host namespace left at its old scope, the host root empty', async () => {
    const { plan, access } = await start(['cgroup-hooks-left-behind'], { brokenCgroupNodes: 2 });
    const report = await run(access);
    expect(report.verdict).toBe('degraded');
    expect(flagged(report)).toEqual([...(plan.cgroup?.brokenNodes ?? [])].sort());
    for (const node of plan.cgroup?.brokenNodes ?? []) {
      const finding = step(report, 'agent-cgroup-root').findings.find((f) => f.target === node);
      const scope = `/run/cilium/cgroupv2${plan.cgroup?.hooksAt?.[node]}`;
      expect(finding?.message).toBe(
        `${node}: 10 of Cilium's socket-LB hook types are not on the host's cgroup root /run/cilium/cgroupv2, only below it: ` +
          `connect4, connect6, post_bind4, post_bind6, sendmsg4, sendmsg6, recvmsg4, recvmsg6, getpeername4, getpeername6 on ${scope}. ` +
          "The root has none of Cilium's hooks. Pods outside that cgroup get no ClusterIP translation from those hooks.",
      );
      expect(finding?.fix).toContain("sh -c 'rm /host/sys/fs/bpf/cilium/socketlb/links/cgroup/*'");
    }
    expect(step(report, 'agent-cgroup-root').summary).toContain(`2 of ${plan.nodes.length} agents`);
  });

  it('flags a set split between the root and the old scope, naming the types left below', async () => {
    const { plan, access } = await start(['cgroup-hooks-split'], { brokenCgroupNodes: 1 });
    const report = await run(access);
    expect(report.verdict).toBe('degraded');
    expect(flagged(report)).toEqual(plan.cgroup?.brokenNodes);
    const [node] = plan.cgroup?.brokenNodes ?? [];
    const finding = step(report, 'agent-cgroup-root').findings.find((f) => f.target === node);
    expect(finding?.message).toBe(
      `${node}: 8 of Cilium's socket-LB hook types are not on the host's cgroup root /run/cilium/cgroupv2, only below it: ` +
        `connect4, connect6, post_bind4, post_bind6, sendmsg4, sendmsg6, recvmsg4, recvmsg6 on /run/cilium/cgroupv2${plan.cgroup?.hooksAt?.[node as string]}. ` +
        "The root has Cilium's getpeername4, getpeername6. Pods outside that cgroup get no ClusterIP translation from those hooks.",
    );
  });

  it('finds hooks on a removed cgroup through bpftool link show, naming the links and programs', async () => {
    const { plan, access } = await start(['cgroup-hooks-removed'], { brokenCgroupNodes: 2 });
    const report = await run(access);
    expect(report.verdict).toBe('degraded');
    const check = step(report, 'agent-cgroup-root');
    expect(check.findings.map((f) => [f.code, f.target, f.severity]).sort()).toEqual(
      (plan.cgroup?.brokenNodes ?? []).map((node) => [HOOKS_ON_REMOVED_CGROUP, node, 'critical']).sort(),
    );
    for (const finding of check.findings) {
      expect(finding.message).toContain(
        "Cilium's socket-LB links for connect4, connect6, post_bind4, post_bind6, sendmsg4, sendmsg6, recvmsg4, recvmsg6, getpeername4, getpeername6 are attached to a cgroup that is not in the tree under /run/cilium/cgroupv2",
      );
      expect(finding.message).toMatch(/link \d+ \(cil_sock4_connect, prog \d+, cgroup id \d+\)/);
      expect(finding.fix).toContain("sh -c 'rm /host/sys/fs/bpf/cilium/socketlb/links/cgroup/*'");
    }
    expect(check.evidence[0]?.text).toMatch(
      /socket-LB hooks: none; links off the tree: link \d+ \(cil_sock4_connect/,
    );
  });

  it('finds only its own incident among all four', async () => {
    const { plan, access } = await start(['all']);
    const report = await run(access);
    expect(report.steps.flatMap((s) => s.findings).map((f) => f.code)).toEqual(
      plan.cgroup?.brokenNodes.map(() => HOOKS_NOT_ON_ROOT),
    );
    expect(flagged(report)).toEqual([...(plan.cgroup?.brokenNodes ?? [])].sort());
  });
});

describe('cgroup-root-hooks where nothing is wrong', () => {
  it('reports a healthy cluster healthy, with zero findings', async () => {
    const { plan, access } = await start(['healthy']);
    const report = await run(access);
    expect(report.verdict).toBe('healthy');
    expect(report.steps.map((s) => [s.id, s.status])).toEqual([
      ['socket-lb', 'pass'],
      ['agent-cgroup-root', 'pass'],
    ]);
    expect(report.steps.flatMap((s) => s.findings)).toEqual([]);
    expect(step(report, 'agent-cgroup-root').summary).toBe(
      `${plan.nodes.length} of ${plan.nodes.length} agents have the socket-LB hooks on the host's cgroup root (inode 1)`,
    );
  });

  it('checks more agents than node warns about listeners for, 16 at a time, without that warning', async () => {
    const { plan, access } = await start(['healthy'], { nodes: 20 });
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    try {
      const report = await run(access);
      expect(report.verdict).toBe('healthy');
      expect(plan.nodes.length).toBe(20);
    } finally {
      process.off('warning', warned);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it.each([
    ['kube-proxy-replacement=false', { kubeProxyReplacement: 'false' }],
    ['the agents reporting it off', {}],
  ] as const)(
    'skips the agents when socket LB is off (%s), even with the broken mount',
    async (_why, options) => {
      const { access } = await start(['cgroup-private-ns'], { socketLB: false, ...options });
      const report = await run(access);
      expect(report.verdict).toBe('healthy');
      expect(step(report, 'socket-lb').summary).toMatch(/^socket LB is off \(/);
      const check = step(report, 'agent-cgroup-root');
      expect(check.status).toBe('skip');
      expect(check.summary).toMatch(/^skipped: socket LB is off \(.* reports it off/);
      expect(report.steps.flatMap((s) => s.findings)).toEqual([]);
    },
  );
});

describe('cgroup-root-hooks when it cannot look', () => {
  it('fails the run, naming the permission, when the token may not exec into agents', async () => {
    const { sim } = await start(['cgroup-private-ns']);
    const readOnly = RESPONDER_RULES.filter((rule) => !rule.resources.includes('pods/exec')).map((rule) => ({
      ...rule,
    }));
    const report = await run(simAccess(sim, sim.issueToken('read-only', readOnly).token));
    expect(report.verdict).toBe('failed');
    const check = step(report, 'agent-cgroup-root');
    expect(check.status).toBe('error');
    expect(check.summary).toContain('forbidden: create pods/exec');
    expect(check.findings).toEqual([]);
  });

  it('reports an agent it could not check, and never calls the run healthy', async () => {
    const { sim, plan, access } = await start(['healthy']);
    const [lost, ...rest] = plan.nodes;
    const agent = sim.cluster.agents.get(lost as string);
    if (!agent) throw new Error('no agent state');
    agent.cgroup.root = '/run/elsewhere';
    const report = await run(access);
    expect(report.verdict).toBe('degraded');
    const check = step(report, 'agent-cgroup-root');
    expect(check.status).toBe('warn');
    expect(check.findings.map((f) => [f.code, f.target, f.severity])).toEqual([
      [AGENT_CHECK_FAILED, lost, 'warning'],
    ]);
    expect(check.findings[0]?.message).toContain(
      "stat -c %i /run/cilium/cgroupv2: stat: cannot statx '/run/cilium/cgroupv2'",
    );
    expect(check.summary).toBe(
      `${rest.length} of ${plan.nodes.length} agents have the socket-LB hooks on the host's cgroup root (inode 1); 1 could not be checked`,
    );
  });

  it('names a few of the agents failing alike and counts the rest', async () => {
    const { sim, plan, access } = await start(['healthy'], { nodes: 9 });
    // In the agents' order, which is the nodes'.
    const lost = [...plan.nodes].sort((a, b) => a.localeCompare(b)).slice(2, 8);
    for (const node of lost) {
      const agent = sim.cluster.agents.get(node);
      if (agent) agent.cgroup.root = '/run/elsewhere';
    }
    const labels: string[] = [];
    const report = await runRunbook({
      runbook: cgroupRootHooks,
      access,
      mode: 'dry-run',
      onProgress: (id, done, total, label) =>
        id === 'agent-cgroup-root' && done === total && labels.push(label ?? ''),
    });
    const check = step(report, 'agent-cgroup-root');
    expect(check.status).toBe('warn');
    expect(check.summary).toBe(
      "3 of 9 agents have the socket-LB hooks on the host's cgroup root (inode 1); 6 could not be checked",
    );
    expect(check.findings.map((f) => [f.code, f.target])).toEqual(
      lost.slice(0, 3).map((node) => [AGENT_CHECK_FAILED, node]),
    );
    expect(check.evidence.at(-1)).toEqual({
      source: `6 agent(s): ${lost.slice(0, 3).join(', ')} and 3 more`,
      text: expect.stringContaining("stat: cannot statx '/run/cilium/cgroupv2'"),
    });
    expect(labels).toEqual(['agents: 3 checked, 6 failed']);
  });

  it('fails when there is no agent to check', async () => {
    // Without controllers, so the DaemonSet does not bring the agents back.
    current = await startScenario(['healthy'], { sim: { controllers: false } });
    const { sim, access } = current;
    for (const agent of await access.cilium.agents())
      sim.cluster.store.delete(R.pods, agent.namespace, agent.name);
    const report = await run(simAccess(sim));
    expect(report.verdict).toBe('failed');
    expect(step(report, 'socket-lb').summary).toBe(
      'socket LB is on (cilium-config kube-proxy-replacement=true; no agent to ask)',
    );
    expect(step(report, 'agent-cgroup-root')).toMatchObject({
      status: 'error',
      summary: 'no Cilium agent pods (k8s-app=cilium) in kube-system',
    });
  });
});
