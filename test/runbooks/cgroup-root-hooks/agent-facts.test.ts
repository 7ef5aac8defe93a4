import { describe, expect, it } from 'vitest';
import { agentFactsScript, readAgentFacts } from '../../../runbooks/cgroup-root-hooks/agent-facts.ts';
import { type ExecResult, KubeError } from '../../../src/cluster/types.ts';
import { fixtureCluster, run } from '../../sim/exec/fixtures.ts';
import { AGENT, agentAnswering, ROOT } from './agent-fixture.ts';

const TEXT_TREE = `CgroupPath\nID       AttachType      AttachFlags     Name\n${ROOT}\n7        connect4        multi           cil_sock4_conne\n`;
const JSON_TREE = `[{"cgroup":"${ROOT}","programs":[{"id":9,"attach_type":"cgroup_inet4_connect","attach_flags":"multi","name":"cil_sock4_connect"}]}]\n`;
/** A walk that finds Cilium's hooks on a container's scope below the root, none on the root. */
const SCOPE = `${ROOT}/kubepods.slice/cri-containerd-9f2c.scope`;
const JSON_TREE_BELOW = `[{"cgroup":"${SCOPE}","programs":[{"id":9,"attach_type":"cgroup_inet4_connect","attach_flags":"multi","name":"cil_sock4_connect"}]}]\n`;

function ok(stdout: string): ExecResult {
  return { stdout: Buffer.from(stdout), stderr: Buffer.alloc(0), exitCode: 0 };
}

function failed(stderr: string, exitCode = 255): ExecResult {
  return { stdout: Buffer.alloc(0), stderr: Buffer.from(stderr), exitCode };
}

const LINKS = 'bpftool -j -f link show';
const PINNED_LINK = `[{"id":89,"type":"cgroup","prog_id":97,"cgroup_id":25,"attach_type":"cgroup_inet4_connect","pinned":["/sys/fs/bpf/cilium/socketlb/links/cgroup/cil_sock4_connect"]}]\n`;

const SIGNALS = {
  [`stat -c %i ${ROOT}`]: ok('1\n'),
  [`stat -f -c %T ${ROOT}`]: ok('cgroup2fs\n'),
  'readlink /proc/self/ns/cgroup': ok('cgroup:[4026531835]\n'),
  [LINKS]: ok('[]\n'),
};

/** What bpftool prints when it fails in JSON mode: its error as JSON on stdout, exit 255. */
function jsonFailure(error: string): ExecResult {
  return { stdout: Buffer.from(`${JSON.stringify([{ error }])}\n`), stderr: Buffer.alloc(0), exitCode: 255 };
}

/** ...and in text mode: the tree's header on stdout, the error on stderr, exit 255. */
function textFailure(error: string): ExecResult {
  return {
    stdout: Buffer.from('CgroupPath\nID       AttachType      AttachFlags     Name           \n'),
    stderr: Buffer.from(`Error: ${error}\n`),
    exitCode: 255,
  };
}

describe('readAgentFacts', () => {
  it('reads the signals, the walk from the root (JSON) and the links in one exec', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: ok(JSON_TREE),
      [LINKS]: ok(PINNED_LINK),
    });
    const facts = await readAgentFacts(agent, AGENT, ROOT);
    expect(facts).toMatchObject({
      root: ROOT,
      inode: 1,
      fsType: 'cgroup2fs',
      namespace: { host: true, inode: 4026531835 },
      links: {
        links: [{ id: 89, progId: 97, cgroupId: 25, hook: 'connect4', ciliumProgram: 'cil_sock4_connect' }],
      },
    });
    expect(facts.tree.socketHooks).toEqual([
      { hook: 'connect4', cgroup: ROOT, programId: 9, name: 'cil_sock4_connect' },
    ]);
    expect(agent.execs).toEqual([['sh', '-c', agentFactsScript(ROOT)]]);
    expect(agent.asked).toEqual([
      `stat -c %i ${ROOT}`,
      `stat -f -c %T ${ROOT}`,
      'readlink /proc/self/ns/cgroup',
      `bpftool -j cgroup tree ${ROOT}`,
      LINKS,
    ]);
  });

  it('finds hooks below a root that has none in the same exec, to say where they are', async () => {
    const agent = agentAnswering({ ...SIGNALS, [`bpftool -j cgroup tree ${ROOT}`]: ok(JSON_TREE_BELOW) });
    const facts = await readAgentFacts(agent, AGENT, ROOT);
    expect(facts.tree.socketHooks.map((p) => [p.hook, p.cgroup])).toEqual([['connect4', SCOPE]]);
    expect(agent.execs).toEqual([['sh', '-c', agentFactsScript(ROOT)]]);
  });

  it('falls back to the text form inside the same exec when bpftool -j fails', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: failed("Error: unrecognized option '-j'"),
      [`bpftool cgroup tree ${ROOT}`]: ok(TEXT_TREE),
    });
    expect((await readAgentFacts(agent, AGENT, ROOT)).tree.socketHooks.map((p) => p.programId)).toEqual([7]);
    expect(agent.execs).toHaveLength(1);
    expect(agent.asked).toContain(`bpftool cgroup tree ${ROOT}`);
  });

  it('runs the text form as a second exec when the JSON one prints what does not parse', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: ok('[{"cgroup": '),
      [`bpftool cgroup tree ${ROOT}`]: ok(TEXT_TREE),
    });
    expect((await readAgentFacts(agent, AGENT, ROOT)).tree.socketHooks.map((p) => p.programId)).toEqual([7]);
    expect(agent.execs).toEqual([
      ['sh', '-c', agentFactsScript(ROOT)],
      ['bpftool', 'cgroup', 'tree', ROOT],
    ]);
  });

  it('cannot check when bpftool fails in both forms (JSON error on stdout, then header and stderr), never "no programs"', async () => {
    const error = "can't query bpf programs attached to /run/cilium/cgroupv2: Operation not permitted";
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: jsonFailure(error),
      [`bpftool cgroup tree ${ROOT}`]: textFailure(error),
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
      `bpftool cgroup tree ${ROOT}: Error: ${error}`,
    );
  });

  it('cannot check when bpftool -j prints its error with exit 0 and the text form fails', async () => {
    const error = `can't iterate over ${ROOT}: No such file or directory`;
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: ok(`[{"error":"${error}"}]\n`),
      [`bpftool cgroup tree ${ROOT}`]: textFailure(error),
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
      `bpftool cgroup tree ${ROOT}: ${textFailure(error).stderr.toString().trim()}`,
    );
  });

  it('cannot check when the agent has no bpftool', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: failed('sh: 1: bpftool: not found', 127),
      [`bpftool cgroup tree ${ROOT}`]: failed('sh: 1: bpftool: not found', 127),
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
      `bpftool cgroup tree ${ROOT}: sh: 1: bpftool: not found`,
    );
  });

  it.each([
    [
      'its JSON error',
      jsonFailure("can't get next link: Operation not permitted"),
      "bpftool: can't get next link: Operation not permitted",
    ],
    ['what sh said', failed('sh: 1: bpftool: not found', 127), 'sh: 1: bpftool: not found'],
    ['its exit code', failed('', 255), 'exit code 255'],
  ])('keeps why the links could not be read (%s), never "no links"', async (_what, answer, said) => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`bpftool -j cgroup tree ${ROOT}`]: ok(JSON_TREE),
      [LINKS]: answer,
    });
    expect((await readAgentFacts(agent, AGENT, ROOT)).links).toEqual({ error: `${LINKS}: ${said}` });
  });

  it('reads the filesystem type of the root, so a tmpfs with inode 1 is not taken for cgroup2', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`stat -f -c %T ${ROOT}`]: ok('tmpfs\n'),
      [`bpftool -j cgroup tree ${ROOT}`]: ok('[]\n'),
    });
    expect(await readAgentFacts(agent, AGENT, ROOT)).toMatchObject({ inode: 1, fsType: 'tmpfs' });
  });

  it('does not retry an exec the API refused', async () => {
    const forbidden = new KubeError('forbidden', 'create', 'pods/exec', 'no');
    const agent = agentAnswering({ [`sh -c ${agentFactsScript(ROOT)}`]: forbidden });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toBe(forbidden);
    expect(agent.execs).toHaveLength(1);
  });

  it('fails on a stat that cannot see the root, naming the command and what it said', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      [`stat -c %i ${ROOT}`]: failed(`stat: cannot statx '${ROOT}': No such file or directory`, 1),
      [`bpftool -j cgroup tree ${ROOT}`]: ok(JSON_TREE),
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
      `stat -c %i ${ROOT}: stat: cannot statx '${ROOT}': No such file or directory`,
    );
  });

  it('names the exit code when a failing command says nothing', async () => {
    const agent = agentAnswering({
      ...SIGNALS,
      'readlink /proc/self/ns/cgroup': failed('', 1),
      [`bpftool -j cgroup tree ${ROOT}`]: ok(JSON_TREE),
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
      'readlink /proc/self/ns/cgroup: exit code 1',
    );
  });

  it('passes a root with a quote and spaces to each command as one argument', async () => {
    const root = "/run/cilium/it's a cgroup";
    const agent = agentAnswering({
      [`stat -c %i ${root}`]: ok('1\n'),
      [`stat -f -c %T ${root}`]: ok('cgroup2fs\n'),
      'readlink /proc/self/ns/cgroup': ok('cgroup:[4026531835]\n'),
      [`bpftool -j cgroup tree ${root}`]: ok(JSON_TREE.replace(ROOT, root)),
      [LINKS]: ok('[]\n'),
    });
    const facts = await readAgentFacts(agent, AGENT, root);
    expect(facts.tree.socketHooks.map((p) => p.cgroup)).toEqual([root]);
    expect(agentFactsScript(root)).toContain(`stat -c %i '/run/cilium/it'\\''s a cgroup'`);
  });

  it('reports what sh said when the script does not run at all', async () => {
    const agent = agentAnswering({
      [`sh -c ${agentFactsScript(ROOT)}`]: {
        stdout: Buffer.alloc(0),
        stderr: Buffer.alloc(0),
        exitCode: 1,
        message:
          'OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in $PATH: unknown',
      },
    });
    await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
      /^sh -c \(stat -c %i .*executable file not found/,
    );
  });
});

describe('agentFactsScript against the simulated agent', () => {
  it('gets every fact from the simulator in one sh -c', async () => {
    const result = await run(fixtureCluster(), ['sh', '-c', agentFactsScript(ROOT)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\n@@responder begin stat\n1\n\n@@responder end stat 0\n/);
    expect(result.stdout).toMatch(/\n@@responder begin fstype\ncgroup2fs\n\n@@responder end fstype 0\n/);
    expect(result.stdout).toContain('\n@@responder end tree-json 0\n');
    expect(result.stdout).toMatch(
      /\n@@responder begin links\n\[\{"id":.*"pinned":\["\/sys\/fs\/bpf\/cilium\/socketlb\/links\/cgroup\/cil_sock4_connect"\]\}.*\n\n@@responder end links 0\n$/,
    );
    expect(result.stdout).not.toContain('tree-text');
  });

  it('runs every section on a root the agent does not have, each with its status', async () => {
    const missing = '/run/cilium/nope';
    const result = await run(fixtureCluster(), ['sh', '-c', agentFactsScript(missing)]);
    expect(result.stdout).toContain('\n@@responder end stat 1\n');
    expect(result.stdout).toContain('\n@@responder end readlink 0\n');
    expect(result.stdout).toMatch(/\n@@responder end tree-json [1-9]\d*\n/);
    expect(result.stdout).toMatch(/\n@@responder end tree-text [1-9]\d*\n/);
    expect(result.stdout).toMatch(/\n@@responder end links 0\n$/);
    expect(result.stderr).toContain(`\n@@responder begin stat\nstat: cannot statx '${missing}'`);
  });
});
