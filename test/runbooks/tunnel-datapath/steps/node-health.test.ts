import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tunnelDatapath } from '../../../../runbooks/tunnel-datapath/index.ts';
import type { AgentPod, CiliumFacade, ClusterAccess, ExecResult } from '../../../../src/cluster/types.ts';
import { runRunbook } from '../../../../src/engine/run.ts';
import type { StepReport } from '../../../../src/engine/types.ts';
import { type SimUnderTest, startScenario } from '../../../helpers/sim-access.ts';

type Exec = CiliumFacade['exec'];

/** The sim's agents, except that `exec` answers as `override` decides (undefined: the real agent). */
function withExec(
  access: ClusterAccess,
  override: (agent: AgentPod) => ExecResult | undefined,
): ClusterAccess {
  const { cilium } = access;
  const exec: Exec = async (agent, command, options) =>
    override(agent) ?? cilium.exec(agent, command, options);
  return {
    ...access,
    cilium: {
      namespace: cilium.namespace,
      agents: () => cilium.agents(),
      findAgent: (test) => cilium.findAgent(test),
      config: () => cilium.config(),
      exec,
      execFirst: (agent, alternatives, options) => cilium.execFirst(agent, alternatives, options),
      dbg: (agent, args, options) => cilium.dbg(agent, args, options),
      iptablesSave: (agent, table, options) => cilium.iptablesSave(agent, table, options),
      forEachAgent: (work, options) => cilium.forEachAgent(work, options),
    },
  };
}

const stdout = (text: string): ExecResult => ({
  stdout: Buffer.from(text),
  stderr: Buffer.alloc(0),
  exitCode: 0,
});

async function healthStep(access: ClusterAccess): Promise<StepReport> {
  const report = await runRunbook({ runbook: tunnelDatapath, access, mode: 'dry-run' });
  const step = report.steps.find((candidate) => candidate.id === 'node-to-node-health');
  if (!step) throw new Error('no node-to-node-health step');
  expect(report.verdict).toBe('failed');
  return step;
}

describe('node-to-node-health when an agent answers badly', () => {
  let under: SimUnderTest;
  let first: string;
  beforeAll(async () => {
    under = await startScenario(['vxlan-blocked']);
    first = [...under.plan.nodes].sort()[0] as string;
  });
  afterAll(() => under?.sim.close());

  const onFirst = (result: ExecResult) => (agent: AgentPod) => (agent.node === first ? result : undefined);

  it('reports truncated JSON as a step error naming the agent, keeping the other agents’ findings', async () => {
    const step = await healthStep(
      withExec(under.access, onFirst(stdout('{"local": {"name": "default/x"}, "nodes": ['))),
    );
    expect(step.status).toBe('error');
    expect(step.summary).toMatch(
      new RegExp(
        `^cilium-health failed on 1 of 4 agents: ${first}: cilium-health status -o json: output is not JSON`,
      ),
    );
    const sources = new Set(step.findings.map((finding) => finding.target.split('->')[0]));
    expect(sources.size).toBe(3);
    expect(sources.has(first)).toBe(false);
  });

  it('reports empty output as a step error', async () => {
    const step = await healthStep(withExec(under.access, onFirst(stdout(''))));
    expect(step.summary).toContain(`${first}: cilium-health status -o json: empty output`);
  });

  it('reports a failing command with its stderr', async () => {
    const failed = {
      stdout: Buffer.alloc(0),
      stderr: Buffer.from(
        'Error: cannot get status: Get "http://localhost/v1beta/status": dial unix /var/run/cilium/health.sock: connect: no such file or directory\n',
      ),
      exitCode: 1,
    };
    const step = await healthStep(withExec(under.access, onFirst(failed)));
    expect(step.summary).toContain(`${first}: cilium-health status exited 1: Error: cannot get status:`);
  });

  it('does not take an agent that has probed nobody yet as healthy', async () => {
    const step = await healthStep(
      withExec(
        under.access,
        onFirst(stdout(JSON.stringify({ local: { name: `default/${first}` }, nodes: null }))),
      ),
    );
    expect(step.summary).toContain(`${first}: cilium-health has no results for the other nodes yet`);
  });

  it('says how many agents failed when several do', async () => {
    const step = await healthStep(withExec(under.access, () => stdout('not json')));
    expect(step.summary).toMatch(/^cilium-health failed on 4 of 4 agents: .*\(and 3 more\)$/);
    expect(step.findings).toEqual([]);
  });
});
