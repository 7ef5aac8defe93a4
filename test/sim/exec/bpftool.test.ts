import { describe, expect, it } from 'vitest';
import { R } from '../../../sim/cluster.ts';
import { AGENT_SCOPE, appPod, fixtureCluster, NODES, run } from './fixtures.ts';

const HEADER = 'CgroupPath\nID       AttachType      AttachFlags     Name           \n';
const LIBBPF_HOOKS = [
  'cgroup_inet4_connect',
  'cgroup_inet6_connect',
  'cgroup_inet4_post_bind',
  'cgroup_inet6_post_bind',
  'cgroup_udp4_sendmsg',
  'cgroup_udp6_sendmsg',
  'cgroup_udp4_recvmsg',
  'cgroup_udp6_recvmsg',
  'cgroup_inet4_getpeername',
  'cgroup_inet6_getpeername',
];

/** The cgroup paths a text tree lists, each with the program lines under it. */
function sections(text: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of text.split('\n').slice(2)) {
    if (line.startsWith('/')) {
      current = [];
      result.set(line, current);
    } else if (line) current.push(line);
  }
  return result;
}

const brokenPrivate = { cgroup: { mountIsHostRoot: false, privateNamespace: true } };

describe('bpftool cgroup tree', () => {
  it('shows the hooks on the host root, and other pods, when the cgroup mount is the host root', async () => {
    const result = await run(fixtureCluster(), ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith(HEADER)).toBe(true);
    const tree = sections(result.stdout);
    const root = tree.get('/run/cilium/cgroupv2') ?? [];
    expect(root.map((line) => line.split(/\s+/)[1])).toEqual(LIBBPF_HOOKS);
    expect(root[0]).toMatch(/^\d+ {2,}cgroup_inet4_connect multi {11}cil_sock4_connect {16}$/);
    expect(root[8]).toMatch(/ cil_sock4_getpeername {16}$/);
    const podScopes = [...tree.keys()].filter((path) => path.includes('/kubepods.slice/'));
    expect(
      podScopes.some((path) =>
        path.includes('kubepods-besteffort-pod11111111_2222_3333_4444_555555555555.slice'),
      ),
    ).toBe(true);
    expect(tree.get(`/run/cilium/cgroupv2${AGENT_SCOPE}`)).toEqual([
      expect.stringMatching(/^ {4}\d+ +cgroup_device {3}multi {42}$/),
    ]);
    expect(tree.get('/run/cilium/cgroupv2/system.slice/systemd-logind.service')?.[2]).toMatch(
      /^ {4}\d+ +cgroup_device {3}multi {11}sd_devices {21}$/,
    );
  });

  it('shows only the agent container with the hooks at the walk root when the mount is its own cgroup', async () => {
    const cluster = fixtureCluster(brokenPrivate);
    const result = await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2']);
    const tree = sections(result.stdout);
    expect([...tree.keys()]).toEqual(['/run/cilium/cgroupv2']);
    const lines = tree.get('/run/cilium/cgroupv2') ?? [];
    expect(lines[0]).toMatch(/^\d+ +cgroup_device {3}multi/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[1])).toEqual(LIBBPF_HOOKS);
    expect((await run(cluster, ['bpftool', 'cgroup', 'tree', '/sys/fs/cgroup'])).stdout).toBe(
      result.stdout.replaceAll('/run/cilium/cgroupv2', '/sys/fs/cgroup'),
    );
  });

  it('shows the hooks under the agent scope from a host-wide /sys/fs/cgroup when the namespace is shared', async () => {
    const cluster = fixtureCluster({ cgroup: { mountIsHostRoot: false, privateNamespace: false } });
    const tree = sections((await run(cluster, ['bpftool', 'cgroup', 'tree'])).stdout);
    expect(tree.has('/sys/fs/cgroup')).toBe(false);
    const scope = tree.get(`/sys/fs/cgroup${AGENT_SCOPE}`) ?? [];
    expect(scope.slice(1).map((line) => line.trim().split(/\s+/)[1])).toEqual(LIBBPF_HOOKS);
    expect(scope.every((line) => line.startsWith('    '))).toBe(true);
  });

  it('walks the host root from the fixed mount even when /sys/fs/cgroup is namespaced', async () => {
    const cluster = fixtureCluster({ cgroup: { mountIsHostRoot: true, privateNamespace: true } });
    expect(
      sections((await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2'])).stdout).get(
        '/run/cilium/cgroupv2',
      ),
    ).toHaveLength(10);
    const own = sections((await run(cluster, ['bpftool', 'cgroup', 'tree', '/sys/fs/cgroup'])).stdout);
    expect([...own.keys()]).toEqual(['/sys/fs/cgroup']);
    expect(own.get('/sys/fs/cgroup')).toEqual([expect.stringMatching(/cgroup_device/)]);
  });

  it('prints legacy attach-type names and 15-character program names from an old bpftool', async () => {
    const cluster = fixtureCluster({ bpftool: { spelling: 'legacy' }, ...brokenPrivate });
    const lines =
      sections((await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2'])).stdout).get(
        '/run/cilium/cgroupv2',
      ) ?? [];
    expect(lines[0]).toMatch(/^\d+ {2,}device {10}multi {26}$/);
    expect(lines[1]).toMatch(/^\d+ {2,}connect4 {8}multi {11}cil_sock4_conne$/);
    expect(lines.map((line) => line.split(/\s+/)[1])).toEqual([
      'device',
      'connect4',
      'connect6',
      'post_bind4',
      'post_bind6',
      'sendmsg4',
      'sendmsg6',
      'recvmsg4',
      'recvmsg6',
      'getpeername4',
      'getpeername6',
    ]);
    expect(lines[9]).toMatch(/ cil_sock4_getpe$/);
  });

  it('prints JSON per cgroup; current bpftool adds the attach BTF ids', async () => {
    const cluster = fixtureCluster(brokenPrivate);
    const result = await run(cluster, ['bpftool', '-j', 'cgroup', 'tree', '/run/cilium/cgroupv2']);
    expect(result.stdout.endsWith(']\n')).toBe(true);
    expect(result.stdout).not.toContain('\n ');
    const json = JSON.parse(result.stdout);
    expect(json).toHaveLength(1);
    expect(json[0].cgroup).toBe('/run/cilium/cgroupv2');
    expect(json[0].programs[1]).toEqual({
      id: expect.any(Number),
      attach_type: 'cgroup_inet4_connect',
      attach_flags: 'multi',
      name: 'cil_sock4_connect',
      attach_btf_name: '',
      attach_btf_obj_id: 0,
      attach_btf_id: 0,
    });
    const pretty = await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2', '--pretty']);
    expect(pretty.stdout).toMatch(
      /^\[\{\n {8}"cgroup": "\/run\/cilium\/cgroupv2",\n {8}"programs": \[\{\n {16}"id": /,
    );
    expect(JSON.parse(pretty.stdout)).toEqual(json);
  });

  it('prints legacy JSON with legacy names and no BTF fields', async () => {
    const cluster = fixtureCluster({ bpftool: { spelling: 'legacy' } });
    const json = JSON.parse(
      (await run(cluster, ['bpftool', '--json', 'cgroup', 'tree', '/run/cilium/cgroupv2'])).stdout,
    );
    expect(json[0].programs[0]).toEqual({
      id: expect.any(Number),
      attach_type: 'connect4',
      attach_flags: 'multi',
      name: 'cil_sock4_conne',
    });
    expect(json.some((entry: { cgroup: string }) => entry.cgroup.includes('/kubepods.slice/'))).toBe(true);
  });

  it('attaches no hooks when socket LB is off', async () => {
    const cluster = fixtureCluster({ socketLB: false });
    const result = await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2']);
    expect(result.stdout).not.toContain('cil_sock');
    expect(sections(result.stdout).has('/run/cilium/cgroupv2')).toBe(false);
  });

  it('lists pods scheduled on the node', async () => {
    const cluster = fixtureCluster();
    const pod = appPod(NODES[0], 'web-1');
    cluster.store.create(R.pods, {
      ...pod,
      metadata: { ...pod.metadata, uid: 'aaaaaaaa-0000-0000-0000-000000000001' },
    });
    const text = (await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2'])).stdout;
    expect(text).toContain(
      'kubepods-besteffort-podaaaaaaaa_0000_0000_0000_000000000001.slice/cri-containerd-',
    );
  });

  it('walks the node as it is now, whatever an earlier walk printed', async () => {
    const cluster = fixtureCluster();
    const json = ['bpftool', '-j', 'cgroup', 'tree', '/run/cilium/cgroupv2'];
    const before = (await run(cluster, json)).stdout;
    expect(before).toContain('cil_sock4_connect');
    expect((await run(cluster, json)).stdout).toBe(before);
    const pod = appPod(NODES[0], 'web-2');
    cluster.store.create(R.pods, {
      ...pod,
      metadata: { ...pod.metadata, uid: 'bbbbbbbb-0000-0000-0000-000000000002' },
    });
    const scheduled = (await run(cluster, json)).stdout;
    expect(scheduled).toContain('podbbbbbbbb_0000_0000_0000_000000000002.slice');
    const text = (await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/cgroupv2'])).stdout;
    expect(text.startsWith(HEADER)).toBe(true);
    expect(text).toContain('podbbbbbbbb_0000_0000_0000_000000000002.slice');
    const agent = cluster.agents.get(NODES[0]);
    if (!agent) throw new Error('no agent on the first node');
    agent.cgroup.hookCgroups = [agent.cgroup.containerPath];
    const [root] = JSON.parse((await run(cluster, json)).stdout) as { cgroup: string; programs: unknown[] }[];
    expect(root?.cgroup).not.toBe('/run/cilium/cgroupv2');
  });

  it('fails on a missing root with bpftool text and exit 255, in text and JSON', async () => {
    const cluster = fixtureCluster();
    expect(await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium/nope'])).toEqual({
      code: 255,
      stdout: HEADER,
      stderr: "Error: can't iterate over /run/cilium/nope: No such file or directory\n",
    });
    expect(await run(cluster, ['bpftool', '-j', 'cgroup', 'tree', '/nope'])).toEqual({
      code: 255,
      stdout: '[{"error":"can\'t iterate over /nope: No such file or directory"}]\n',
      stderr: '',
    });
    const notCgroup = await run(cluster, ['bpftool', 'cgroup', 'tree', '/run/cilium']);
    expect(notCgroup.code).toBe(255);
    expect(notCgroup.stderr).toBe(
      "Error: can't query bpf programs attached to /run/cilium: Bad file descriptor\n",
    );
  });

  it('shows one cgroup with `cgroup show`', async () => {
    const cluster = fixtureCluster(brokenPrivate);
    const result = await run(cluster, ['bpftool', 'cgroup', 'show', '/run/cilium/cgroupv2']);
    expect(result.stdout.split('\n')[0]).toBe('ID       AttachType      AttachFlags     Name           ');
    expect(result.stdout.split('\n')).toHaveLength(13);
    expect((await run(cluster, ['bpftool', 'cgroup', 'show', '/nope'])).stderr).toBe(
      "Error: can't open cgroup /nope\n",
    );
  });

  it('reports its version per flavour', async () => {
    expect((await run(fixtureCluster(), ['bpftool', '-V'])).stdout).toMatch(
      /^bpftool v7\.\d+\.\d+\nusing libbpf v1\.\d+\n/,
    );
    expect(
      (
        await run(fixtureCluster({ bpftool: { spelling: 'legacy' } }), [
          '/usr/local/bin/bpftool',
          '--version',
        ])
      ).stdout,
    ).toBe('/usr/local/bin/bpftool v5.10.0\n');
  });
});
