import { describe, expect, it } from 'vitest';
import { readAgentFacts } from '../../../runbooks/cgroup-root-hooks/agent-facts.ts';
import { type AgentPod, type ExecResult, KubeError } from '../../../src/cluster/types.ts';
import { AGENT, ROOT } from './agent-fixture.ts';

const TEXT_TREE = `CgroupPath\nID       AttachType      AttachFlags     Name\n${ROOT}\n7        connect4        multi           cil_sock4_conne\n`;
const JSON_TREE = `[{"cgroup":"${ROOT}","programs":[{"id":9,"attach_type":"cgroup_inet4_connect","attach_flags":"multi","name":"cil_sock4_connect"}]}]\n`;

type Answer = ExecResult | Error;

function ok(stdout: string): ExecResult {
  return { stdout: Buffer.from(stdout), stderr: Buffer.alloc(0), exitCode: 0 };
}

function failed(stderr: string, exitCode = 255): ExecResult {
  return { stdout: Buffer.alloc(0), stderr: Buffer.from(stderr), exitCode };
}

/** An agent that answers each command line from a table, and remembers what it was asked. */
function agentAnswering(answers: Record<string, Answer>) {
  const asked: string[] = [];
  const exec = async (_agent: AgentPod, command: string[]): Promise<ExecResult> => {
    const line = command.join(' ');
    asked.push(line);
    const answer = answers[line];
    if (answer === undefined) throw new Error(`unexpected command ${line}`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { exec, asked };
}

const SIGNALS = {
  [`stat -c %i ${ROOT}`]: ok('1\n'),
  'readlink /proc/self/ns/cgroup': ok('cgroup:[4026531835]\n'),
};

describe('readAgentFacts', () => {
  it('reads both signals and the JSON walk', async () => {
    const agent = agentAnswering({ ...SIGNALS, [`bpftool -j cgroup tree ${ROOT}`]: ok(JSON_TREE) });
    const facts = await readAgentFacts(agent, AGENT, ROOT);
    expect(facts).toMatchObject({ root: ROOT, inode: 1, namespace: { host: true } });
    expect(facts.tree.socketHooks).toEqual([
      { hook: 'connect4', cgroup: ROOT, programId: 9, name: 'cil_sock4_connect' },
    ]);
    expect(agent.asked).not.toContain(`bpftool cgroup tree ${ROOT}`);
  });

  it.each([
    ['fails', failed("Error: unrecognized option '-j'")],
    ['prints what does not parse', ok('{"cgroup": ')],
  ])('falls back to the text walk when the JSON one %s', async (_what, json) => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: json,
      [`bpftool cgroup tree ${ROOT}`]: ok(TEXT_TREE),
    });
    expect((await readAgentFacts(agent, AGENT, ROOT)).tree.socketHooks.map((p) => p.programId)).toEqual([7]);
  });

  it('fails with what bpftool said when neither form works', async () => {
    const error = `Error: can't iterate over ${ROOT}: No such file or directory`;
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: failed(''),
      [`bpftool cgroup tree ${ROOT}`]: failed(error),
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(`bpftool cgroup tree ${ROOT}: ${error}`);
  });

  it('does not retry an exec the API refused', async () => {
    const forbidden = new KubeError('forbidden', 'create', 'pods/exec', 'no');
    const agent = agentAnswering({ ...SIGNALS, [`bpftool -j cgroup tree ${ROOT}`]: forbidden });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toBe(forbidden);
    expect(agent.asked).not.toContain(`bpftool cgroup tree ${ROOT}`);
  });

  it('fails on a stat that cannot see the root, naming the command', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`stat -c %i ${ROOT}`]: failed(`stat: cannot statx '${ROOT}': No such file or directory`, 1),
      [`bpftool -j cgroup tree ${ROOT}`]: ok(JSON_TREE),
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
      `stat -c %i ${ROOT}: stat: cannot statx`,
    );
  });
});
