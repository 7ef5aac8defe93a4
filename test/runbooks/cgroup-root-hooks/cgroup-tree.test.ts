import { describe, expect, it } from 'vitest';
import { parseCgroupShow, parseCgroupTree } from '../../../runbooks/cgroup-root-hooks/index.ts';
import { SOCKET_LB_HOOKS } from '../../../runbooks/cgroup-root-hooks/socket-hooks.ts';
import type { AttachTypeSpelling } from '../../../sim/agent-state.ts';
import { AGENT_SCOPE, type AgentOverrides, fixtureCluster, run } from '../../sim/exec/fixtures.ts';

const ROOT = '/run/cilium/cgroupv2';
const HEADER = 'CgroupPath\nID       AttachType      AttachFlags     Name           \n';

/** What the simulator's bpftool prints (it follows bpftool's own format code) in the first node's agent. */
async function simulated(overrides: AgentOverrides, flags: string[], root = ROOT): Promise<string> {
  const result = await run(fixtureCluster(overrides), ['bpftool', ...flags, 'cgroup', 'tree', root]);
  expect(result.code).toBe(0);
  return result.stdout;
}

const SPELLINGS: AttachTypeSpelling[] = ['legacy', 'libbpf'];
const FORMS = [
  { form: 'text', flags: [] },
  { form: 'JSON', flags: ['-j'] },
  { form: 'pretty JSON', flags: ['-p'] },
];
const HOST_ROOT = { cgroup: { mountIsHostRoot: true, privateNamespace: false } };
const OWN_CONTAINER = { cgroup: { mountIsHostRoot: false, privateNamespace: true } };
const SHARED_NAMESPACE_WRONG_MOUNT = { cgroup: { mountIsHostRoot: false, privateNamespace: false } };

describe('parseCgroupTree on the simulator’s bpftool output', () => {
  for (const spelling of SPELLINGS) {
    for (const { form, flags } of FORMS) {
      it(`${spelling} ${form}: hooks on the host root, other pods' cgroups below it`, async () => {
        const tree = parseCgroupTree(await simulated({ bpftool: { spelling }, ...HOST_ROOT }, flags));
        expect(tree.socketHooks.map((placement) => placement.hook)).toEqual([...SOCKET_LB_HOOKS]);
        expect(new Set(tree.socketHooks.map((placement) => placement.cgroup))).toEqual(new Set([ROOT]));
        expect(tree.cgroups.some((cgroup) => cgroup.path.includes('/kubepods.slice/'))).toBe(true);
        expect(tree.cgroups[0]?.path).toBe(ROOT);
      });

      it(`${spelling} ${form}: from inside a private namespace, the walk shows only the agent's container`, async () => {
        const tree = parseCgroupTree(await simulated({ bpftool: { spelling }, ...OWN_CONTAINER }, flags));
        expect(tree.cgroups.map((cgroup) => cgroup.path)).toEqual([ROOT]);
        expect(tree.socketHooks).toHaveLength(SOCKET_LB_HOOKS.length);
      });

      it(`${spelling} ${form}: from the host root, the hooks sit on the agent's container scope`, async () => {
        const output = await simulated(
          { bpftool: { spelling }, ...SHARED_NAMESPACE_WRONG_MOUNT },
          flags,
          '/sys/fs/cgroup',
        );
        const tree = parseCgroupTree(output);
        expect(new Set(tree.socketHooks.map((placement) => placement.cgroup))).toEqual(
          new Set([`/sys/fs/cgroup${AGENT_SCOPE}`]),
        );
        expect(tree.socketHooks.map((placement) => placement.hook)).toEqual([...SOCKET_LB_HOOKS]);
      });
    }

    it(`${spelling}: the text and JSON forms parse to the same tree`, async () => {
      const overrides = { bpftool: { spelling }, ...HOST_ROOT };
      expect(parseCgroupTree(await simulated(overrides, []))).toEqual(
        parseCgroupTree(await simulated(overrides, ['-j'])),
      );
    });
  }

  it('keeps the names as printed: cut to 15 characters by old bpftool, whole by current', async () => {
    const legacy = parseCgroupTree(await simulated({ bpftool: { spelling: 'legacy' } }, []));
    const current = parseCgroupTree(await simulated({ bpftool: { spelling: 'libbpf' } }, []));
    expect(legacy.socketHooks[0]).toMatchObject({ hook: 'connect4', name: 'cil_sock4_conne' });
    expect(current.socketHooks[0]).toMatchObject({ hook: 'connect4', name: 'cil_sock4_connect' });
  });
});

/** Hand-written from bpftool v5.10 (old attach-type names, 15-character names). */
const LEGACY_TEXT = `${HEADER}/run/cilium/cgroupv2
2086     connect4        multi           cil_sock4_conne
2087     connect6        multi           cil_sock6_conne
2081     post_bind4      multi           cil_sock4_post_
2082     post_bind6      multi           cil_sock6_post_
2083     sendmsg4        multi           cil_sock4_sendm
2084     sendmsg6        multi           cil_sock6_sendm
2089     recvmsg4        multi           cil_sock4_recvm
2088     recvmsg6        multi           cil_sock6_recvm
2085     getpeername4    multi           cil_sock4_getpe
2090     getpeername6    multi           cil_sock6_getpe
/run/cilium/cgroupv2/system.slice/systemd-udevd.service
    5        ingress         multi           sd_fw_ingress  
    4        egress          multi           sd_fw_egress   
`;

/** Hand-written from bpftool v7.4 (libbpf names overflow their column), agent hooks on a container scope. */
const LIBBPF_TEXT = `${HEADER}/sys/fs/cgroup/system.slice/systemd-logind.service
    14       cgroup_device                   sd_devices     
/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod4c1e.slice/cri-containerd-9f2c.scope
    300      cgroup_device   multi                          
    1907     cgroup_inet4_connect multi           cil_sock4_connect
    1911     cgroup_inet6_post_bind multi           cil_sock6_post_bind
    1913     cgroup_udp4_sendmsg multi           cil_sock4_sendmsg
    1916     cgroup_udp6_recvmsg multi           cil_sock6_recvmsg
    1917     cgroup_inet4_getpeername multi           cil_sock4_getpeername
`;

describe('parseCgroupTree on hand-written bpftool output', () => {
  it('reads old bpftool text: hooks on the walk root, sub-cgroup programs indented', () => {
    const tree = parseCgroupTree(LEGACY_TEXT);
    expect(tree.cgroups.map((cgroup) => [cgroup.path, cgroup.programs.length])).toEqual([
      ['/run/cilium/cgroupv2', 10],
      ['/run/cilium/cgroupv2/system.slice/systemd-udevd.service', 2],
    ]);
    expect(tree.socketHooks).toHaveLength(10);
    expect(tree.socketHooks[2]).toEqual({
      hook: 'post_bind4',
      cgroup: '/run/cilium/cgroupv2',
      programId: 2081,
      name: 'cil_sock4_post_',
    });
    expect(tree.cgroups[1]?.programs[0]).toEqual({
      id: 5,
      attachType: 'ingress',
      attachFlags: 'multi',
      name: 'sd_fw_ingress',
    });
  });

  it('reads current bpftool text: libbpf names, empty flags, empty names', () => {
    const tree = parseCgroupTree(LIBBPF_TEXT);
    expect(tree.cgroups[0]?.programs[0]).toEqual({
      id: 14,
      attachType: 'cgroup_device',
      attachFlags: '',
      name: 'sd_devices',
    });
    expect(tree.cgroups[1]?.programs[0]).toEqual({
      id: 300,
      attachType: 'cgroup_device',
      attachFlags: 'multi',
      name: '',
    });
    expect(tree.socketHooks.map((placement) => placement.hook)).toEqual([
      'connect4',
      'post_bind6',
      'sendmsg4',
      'recvmsg6',
      'getpeername4',
    ]);
    expect(new Set(tree.socketHooks.map((placement) => placement.cgroup))).toEqual(
      new Set([tree.cgroups[1]?.path]),
    );
  });

  it('reads JSON with numeric attach types (bpftool without a name for them)', () => {
    const output = JSON.stringify([
      {
        cgroup: '/run/cilium/cgroupv2',
        programs: [
          { id: 7, attach_type: 29, attach_flags: 'multi', name: 'cil_sock4_getpe' },
          { id: 8, attach_type: 'connect6', attach_flags: 'override', name: 'cil_sock6_conne' },
        ],
      },
    ]);
    expect(parseCgroupTree(output).socketHooks.map((placement) => placement.hook)).toEqual([
      'getpeername4',
      'connect6',
    ]);
    expect(parseCgroupTree(output).cgroups[0]?.programs[0]?.attachType).toBe('type 29');
  });

  it('reads text with an unnamed attach type printed as two words', () => {
    const tree = parseCgroupTree(
      `${HEADER}/run/cilium/cgroupv2\n42       type 30         multi           cil_sock6_getpe\n`,
    );
    expect(tree.socketHooks).toEqual([
      { hook: 'getpeername6', cgroup: '/run/cilium/cgroupv2', programId: 42, name: 'cil_sock6_getpe' },
    ]);
  });

  it("counts only Cilium's programs as socket-LB hooks, with or without the cil_ prefix", () => {
    const tree = parseCgroupTree(
      `${HEADER}/run/cilium/cgroupv2\n1        connect4        multi           mesh_connect4  \n2        connect4        multi           sock4_connect  \n`,
    );
    expect(tree.cgroups[0]?.programs).toHaveLength(2);
    expect(tree.socketHooks.map((placement) => placement.programId)).toEqual([2]);
  });

  it("counts unnamed programs on socket-LB hooks as Cilium's (older bpftool prints no name)", () => {
    const tree = parseCgroupTree(
      `${HEADER}/run/cilium/cgroupv2\n2424     connect4\n2425     sendmsg6        multi\n2426     ingress\n`,
    );
    expect(
      tree.socketHooks.map((placement) => [placement.hook, placement.programId, placement.name]),
    ).toEqual([
      ['connect4', 2424, ''],
      ['sendmsg6', 2425, ''],
    ]);
  });

  it('counts an unnamed socket-LB program as foreign where the walk prints names', () => {
    const tree = parseCgroupTree(
      `${HEADER}/run/cilium/cgroupv2\n2424     connect4        multi\n2425     sendmsg6        multi           cil_sock6_sendm\n`,
    );
    expect(tree.socketHooks.map((placement) => placement.programId)).toEqual([2425]);
    expect(tree.foreignHooks).toEqual([
      { hook: 'connect4', cgroup: '/run/cilium/cgroupv2', programId: 2424, name: '' },
    ]);
  });

  it('accepts CRLF line ends and output without the header', () => {
    const tree = parseCgroupTree(
      '/run/cilium/cgroupv2\r\n1        connect4        multi           cil_sock4_conne\r\n',
    );
    expect(tree.socketHooks).toHaveLength(1);
  });
});

describe('parseCgroupTree: nothing, or nothing readable', () => {
  it('reads a header alone, or [], as a walk that found no programs', () => {
    expect(parseCgroupTree(HEADER)).toEqual({ cgroups: [], socketHooks: [], foreignHooks: [] });
    expect(parseCgroupTree('[]\n')).toEqual({ cgroups: [], socketHooks: [], foreignHooks: [] });
  });

  it.each([
    ['empty output', '', /printed nothing/],
    ['blank output', '  \n\n', /printed nothing/],
    [
      'a program before any path',
      `${HEADER}1        connect4        multi           cil_sock4_conne\n`,
      /before any cgroup path/,
    ],
    [
      'an error message',
      "Error: can't iterate over /run/cilium/cgroupv2: No such file or directory\n",
      /line 1: neither/,
    ],
    ['a program line without an attach type', `${HEADER}/run/cilium/cgroupv2\n    12\n`, /line 4: neither/],
    [
      'two-space indentation',
      `${HEADER}/run/cilium/cgroupv2\n  12       connect4        multi\n`,
      /line 4: neither/,
    ],
    [
      'a garbled attach type',
      `${HEADER}/run/cilium/cgroupv2\n12       conn%ct4        multi\n`,
      /not an attach type/,
    ],
    [
      'a path cut off before its programs',
      `${HEADER}/run/cilium/cgroupv2\n1        connect4        multi           x\n/run/cilium/cgroupv2/kube`,
      /without programs \(truncated/,
    ],
    ['truncated JSON', '[{"cgroup":"/run/cilium/cgroupv2","programs":[{"id":1,', /does not parse/],
    [
      'a JSON error',
      '{"error":"can\'t iterate over /x: No such file or directory"}\n',
      /bpftool: can't iterate over \/x/,
    ],
    [
      'a walk cut short by an error',
      '[{"error":"can\'t query bpf programs attached to /x: Bad file descriptor"}]',
      /bpftool: can't query/,
    ],
    ['JSON of another shape', '{"cgroups":[]}', /unexpected JSON: \(root\)/],
    [
      'JSON with a string id',
      '[{"cgroup":"/x","programs":[{"id":"1","attach_type":"connect4","attach_flags":"","name":""}]}]',
      /unexpected JSON: \[0\]\.programs\[0\]\.id/,
    ],
  ])('throws on %s', (_what, output, message) => {
    expect(() => parseCgroupTree(output)).toThrow(message);
  });
});

describe('parseCgroupShow (bpftool cgroup show ROOT)', () => {
  const root = '/run/cilium/cgroupv2';

  it("reads the root's programs in text and JSON, unnamed ones too (where no name is printed)", () => {
    const text = parseCgroupShow(`${HEADER}2424     connect4\n2425     sendmsg6        multi\n`, root);
    expect(text.socketHooks.map((p) => [p.hook, p.cgroup, p.programId])).toEqual([
      ['connect4', root, 2424],
      ['sendmsg6', root, 2425],
    ]);
    const json = parseCgroupShow(
      '[{"id":9,"attach_type":"cgroup_inet4_connect","attach_flags":"multi","name":"cil_sock4_connect"}]',
      root,
    );
    expect(json.socketHooks.map((p) => p.hook)).toEqual(['connect4']);
  });

  it.each([
    ['nothing (what bpftool prints for a cgroup with no programs)', ''],
    ['a lone newline (what bpftool -j prints for one)', '\n'],
    ['a header alone', HEADER],
    ['[]', '[]'],
  ])('reads %s as a cgroup with no programs', (_what, output) => {
    expect(parseCgroupShow(output, root)).toEqual({ cgroups: [], socketHooks: [], foreignHooks: [] });
  });

  it('reads the effective form, whose header has no AttachFlags column', () => {
    const effective = `ID       AttachType      Name           \n2424     cgroup_inet4_connect cil_sock4_connect\n`;
    expect(parseCgroupShow(effective, root).socketHooks.map((p) => [p.hook, p.name])).toEqual([
      ['connect4', 'cil_sock4_connect'],
    ]);
  });

  it.each([
    ["bpftool's JSON error", '{"error":"can\'t query cgroup"}', /bpftool: can't query cgroup/],
    [
      'a line that is not a program',
      `${HEADER}Error: bad\n`,
      /line 3: neither a cgroup path nor a program: "Error: bad"/,
    ],
  ])('throws on %s', (_what, output, message) => {
    expect(() => parseCgroupShow(output, root)).toThrow(message);
  });
});
