import type { EC2Client } from '@aws-sdk/client-ec2';
import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tunnelDatapath } from '../../../runbooks/tunnel-datapath/index.ts';
import type { ScenarioOptions } from '../../../sim/scenarios/index.ts';
import { ec2Reader } from '../../../src/aws/ec2.ts';
import { RESPONDER_RULES } from '../../../src/cluster/permissions.ts';
import type { ClusterAccess } from '../../../src/cluster/types.ts';
import { runRunbook } from '../../../src/engine/run.ts';
import type { Report, StepReport } from '../../../src/engine/types.ts';
import { type SimUnderTest, simAccess, startScenario } from '../../helpers/sim-access.ts';
import { ec2FromSim } from './ec2-from-sim.ts';

const STEP_IDS = ['routing-config', 'node-to-node-health', 'security-groups'];

/** The cluster with an AWS side whose EC2 answers from the simulated cluster (or `ec2`). */
function withEc2(access: ClusterAccess, ec2: EC2Client): ClusterAccess {
  return { ...access, aws: { region: 'us-west-2', ec2: ec2Reader(ec2, 'us-west-2') } };
}

async function run(under: SimUnderTest, ec2 = ec2FromSim(under.sim.cluster).ec2) {
  return runRunbook({ runbook: tunnelDatapath, access: withEc2(under.access, ec2), mode: 'dry-run' });
}

function step(report: Report, id: string): StepReport {
  const found = report.steps.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
}

function targets(report: Report, code: string): string[] {
  return report.steps
    .flatMap((s) => s.findings)
    .filter((finding) => finding.code === code)
    .map((finding) => finding.target)
    .sort();
}

/** The pairs the scenario broke: each ready agent's cilium-health failures towards ready peers. */
function brokenPairs(under: SimUnderTest): string[] {
  const agents = [...under.sim.cluster.agents.values()];
  const ready = new Set(agents.filter((agent) => agent.ready).map((agent) => agent.node));
  return agents
    .filter((agent) => agent.ready)
    .flatMap((agent) =>
      Object.keys(agent.health.peers)
        .filter((peer) => ready.has(peer))
        .map((peer) => `${agent.node}->${peer}`),
    )
    .sort();
}

function allOrderedPairs(nodes: readonly string[]): string[] {
  return nodes.flatMap((from) => nodes.filter((to) => to !== from).map((to) => `${from}->${to}`)).sort();
}

describe('tunnel-datapath on vxlan-blocked', () => {
  const cases: { name: string; options: ScenarioOptions; path: RegExp; rule: string }[] = [
    {
      name: 'all UDP dropped (VXLAN)',
      options: { vxlanCause: 'udp-blocked' },
      path: /through the tunnel while node/,
      rule: 'udp/8472 (VXLAN)',
    },
    {
      name: '4240/tcp dropped',
      options: { vxlanCause: 'health-port-blocked' },
      path: /fails HTTP while its health endpoint answers/,
      rule: 'tcp/4240 (cilium-health)',
    },
    {
      name: 'ICMP dropped',
      options: { vxlanCause: 'icmp-blocked' },
      path: /fails ICMP while its health endpoint answers/,
      rule: 'ICMP',
    },
    {
      name: 'Geneve, UDP dropped',
      options: { tunnelProtocol: 'geneve' },
      path: /fails ICMP and HTTP through the tunnel/,
      rule: 'udp/6081 (Geneve)',
    },
    {
      name: 'Cilium 1.13 (tunnel key)',
      options: { ciliumVersion: '1.13.9' },
      path: /udp\/8472 \(VXLAN\) is dropped/,
      rule: 'udp/8472 (VXLAN)',
    },
  ];

  describe.each(cases)('$name', ({ options, path, rule }) => {
    let under: SimUnderTest;
    let report: Report;
    beforeAll(async () => {
      under = await startScenario(['vxlan-blocked'], { scenario: options });
      report = await run(under);
    });
    afterAll(() => under?.sim.close());

    it('reports exactly the broken node pairs, saying which probe failed', () => {
      const pairs = brokenPairs(under);
      expect(pairs).toEqual(allOrderedPairs(under.plan.nodes));
      expect(targets(report, 'TUNNEL_PATH_DOWN')).toEqual(pairs);
      for (const finding of step(report, 'node-to-node-health').findings) {
        expect(finding.severity).toBe('critical');
        expect(finding.message).toMatch(path);
      }
    });

    it('reports exactly the planted security groups, with the missing rule and the command', () => {
      const groups = [...(under.plan.tunnel?.securityGroups ?? [])].sort();
      expect(groups.length).toBeGreaterThan(0);
      expect(targets(report, 'TUNNEL_PORT_BLOCKED')).toEqual(groups);
      for (const finding of step(report, 'security-groups').findings) {
        expect(finding.message).toContain(`does not allow ${rule} from`);
        expect(finding.fix).toMatch(
          /^aws ec2 authorize-security-group-ingress --region us-west-2 --group-id sg-/,
        );
      }
    });

    it('finds nothing else, and calls the cluster degraded', () => {
      expect(report.steps.map((s) => [s.id, s.status])).toEqual([
        ['routing-config', 'pass'],
        ['node-to-node-health', 'fail'],
        ['security-groups', 'fail'],
      ]);
      const codes = new Set(report.steps.flatMap((s) => s.findings.map((finding) => finding.code)));
      expect([...codes].sort()).toEqual(['TUNNEL_PATH_DOWN', 'TUNNEL_PORT_BLOCKED']);
      expect(report.verdict).toBe('degraded');
    });
  });
});

describe('tunnel-datapath on healthy clusters', () => {
  it.each([
    ['tunnel routing', {}],
    ['Geneve on a custom port', { tunnelProtocol: 'geneve', tunnelPort: 6082 }],
    ['Cilium 1.13 (tunnel key)', { ciliumVersion: '1.13.9' }],
  ] as [string, ScenarioOptions][])('%s: healthy, zero findings', async (_name, options) => {
    const under = await startScenario(['healthy'], { scenario: options });
    try {
      const report = await run(under);
      expect(report.steps.map((s) => [s.id, s.status])).toEqual(STEP_IDS.map((id) => [id, 'pass']));
      expect(report.steps.flatMap((s) => s.findings)).toEqual([]);
      expect(report.verdict).toBe('healthy');
    } finally {
      await under.sim.close();
    }
  });

  it('native routing: healthy, the tunnel checks skipped as not applicable', async () => {
    const under = await startScenario(['healthy'], { scenario: { routingMode: 'native' } });
    try {
      const { ec2, mock } = ec2FromSim(under.sim.cluster);
      const report = await run(under, ec2);
      expect(report.steps.map((s) => [s.id, s.status])).toEqual([
        ['routing-config', 'pass'],
        ['node-to-node-health', 'skip'],
        ['security-groups', 'skip'],
      ]);
      expect(step(report, 'routing-config').summary).toBe(
        'native routing (routing-mode=native): no tunnel between nodes',
      );
      expect(step(report, 'security-groups').summary).toMatch(/^not applicable: native routing/);
      expect(mock.calls()).toHaveLength(0);
      expect(report.verdict).toBe('healthy');
    } finally {
      await under.sim.close();
    }
  });
});

describe('tunnel-datapath on all four incidents', () => {
  let under: SimUnderTest;
  let report: Report;
  beforeAll(async () => {
    under = await startScenario(['all']);
    report = await run(under);
  });
  afterAll(() => under?.sim.close());

  it('finds only its own incident', () => {
    const codes = new Set(report.steps.flatMap((s) => s.findings.map((finding) => finding.code)));
    expect([...codes].sort()).toEqual(['TUNNEL_PATH_DOWN', 'TUNNEL_PORT_BLOCKED']);
    expect(targets(report, 'TUNNEL_PATH_DOWN')).toEqual(brokenPairs(under));
    expect(targets(report, 'TUNNEL_PORT_BLOCKED')).toEqual(
      [...(under.plan.tunnel?.securityGroups ?? [])].sort(),
    );
  });

  it('judges nodes whose agent is not ready by ICMP only, and says what it did not check', () => {
    const notReady = under.plan.unmanagedPods?.notReadyAgentNodes ?? [];
    expect(notReady.length).toBeGreaterThan(0);
    const pairs = targets(report, 'TUNNEL_PATH_DOWN');
    for (const node of notReady) expect(pairs.filter((pair) => pair.split('->').includes(node))).toEqual([]);
    expect(step(report, 'node-to-node-health').evidence).toContainEqual({
      source: 'agents',
      text: expect.stringMatching(/^not checked, agent not ready: .*only their nodes' ICMP judged\)$/),
    });
  });
});

describe('tunnel-datapath with a node down whose agent is not ready', () => {
  let under: SimUnderTest;
  beforeAll(async () => {
    under = await startScenario(['unmanaged-pods']);
  });
  afterAll(() => under?.sim.close());

  it('is not healthy: the other nodes get no ICMP answer from it', async () => {
    const down = under.plan.unmanagedPods?.notReadyAgentNodes[0];
    if (!down) throw new Error('the scenario needs an agent that is not ready');
    const ready = [...under.sim.cluster.agents.values()].filter((agent) => agent.ready);
    const timedOut = { icmp: 'Connection timed out', http: 'context deadline exceeded' };
    for (const agent of ready) agent.health.peers[down] = { host: timedOut, endpoint: timedOut };
    const report = await run(under);
    expect(report.verdict).toBe('degraded');
    expect(targets(report, 'TUNNEL_PATH_DOWN')).toEqual(
      ready.map((agent) => `${agent.node}->${down}`).sort(),
    );
    expect(step(report, 'node-to-node-health').findings[0]?.message).toContain(
      'does not answer ICMP, and its Cilium agent is not ready',
    );
  });
});

describe('tunnel-datapath when access is missing', () => {
  let under: SimUnderTest;
  beforeAll(async () => {
    under = await startScenario(['vxlan-blocked']);
  });
  afterAll(() => under?.sim.close());

  it('fails clearly on a token that may not exec into the agents', async () => {
    const rules = RESPONDER_RULES.filter((rule) => !rule.resources.includes('pods/exec'));
    const grant = under.sim.issueToken('no-exec', rules);
    const { ec2 } = ec2FromSim(under.sim.cluster);
    const report = await runRunbook({
      runbook: tunnelDatapath,
      access: withEc2(simAccess(under.sim, grant.token), ec2),
      mode: 'dry-run',
    });
    expect(report.verdict).toBe('failed');
    const health = step(report, 'node-to-node-health');
    expect(health.status).toBe('error');
    expect(health.summary).toContain('forbidden: create pods/exec');
    expect(health.findings).toEqual([]);
  });

  it('fails clearly when EC2 denies DescribeInstances, naming the call', async () => {
    const { ec2, mock } = ec2FromSim(under.sim.cluster);
    mock.on(DescribeInstancesCommand).rejects(
      Object.assign(new Error('You are not authorized to perform this operation.'), {
        name: 'UnauthorizedOperation',
      }),
    );
    const report = await run(under, ec2);
    expect(report.verdict).toBe('failed');
    const groups = step(report, 'security-groups');
    expect(groups.status).toBe('error');
    expect(groups.summary).toMatch(/^not allowed to call ec2:DescribeInstances \(UnauthorizedOperation: /);
    expect(step(report, 'node-to-node-health').findings.length).toBeGreaterThan(0);
  });

  it('without an AWS side, still reports the broken paths and says how to check the groups', async () => {
    const report = await runRunbook({ runbook: tunnelDatapath, access: under.access, mode: 'dry-run' });
    expect(targets(report, 'TUNNEL_PATH_DOWN')).toEqual(brokenPairs(under));
    const groups = step(report, 'security-groups');
    expect(groups.status).toBe('skip');
    expect(groups.summary).toBe(
      'not checked: the cluster has no AWS side in the config (an eks cluster, or aws.region on a kubeconfig cluster)',
    );
    expect(report.verdict).toBe('degraded');
  });
});

describe('tunnel-datapath on a larger blocked cluster', () => {
  it('lists at most 200 failing pairs as findings and counts the rest, in a stable order', async () => {
    const under = await startScenario(['vxlan-blocked'], { scenario: { nodes: 16 } });
    try {
      const first = await runRunbook({ runbook: tunnelDatapath, access: under.access, mode: 'dry-run' });
      const step = first.steps.find((s) => s.id === 'node-to-node-health') as StepReport;
      expect(step.summary).toMatch(/^240 failing node-to-node paths from 16 of 16 nodes/);
      expect(step.findings).toHaveLength(200);
      expect(step.evidence.map((e) => e.text)).toContain(
        '40 more failing paths are not listed as findings (same fix)',
      );
      const again = await runRunbook({ runbook: tunnelDatapath, access: under.access, mode: 'dry-run' });
      const targets = (report: Report) => report.steps.flatMap((s) => s.findings.map((f) => f.target));
      expect(targets(again)).toEqual(targets(first));
    } finally {
      await under.sim.close();
    }
  }, 60_000);
});
