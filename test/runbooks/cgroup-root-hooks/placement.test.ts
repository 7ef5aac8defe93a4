import { describe, expect, it } from 'vitest';
import { parseLinkShow } from '../../../runbooks/cgroup-root-hooks/cgroup-links.ts';
import type { LinkListing } from '../../../runbooks/cgroup-root-hooks/hook-sets.ts';
import { parseCgroupTree } from '../../../runbooks/cgroup-root-hooks/index.ts';
import {
  type AgentCgroupFacts,
  HOOKS_ALSO_NESTED,
  HOOKS_MISSING,
  HOOKS_NOT_ON_ROOT,
  HOOKS_ON_REMOVED_CGROUP,
  judgePlacement,
  placementEvidence,
  ROOT_NOT_CGROUP2,
} from '../../../runbooks/cgroup-root-hooks/placement.ts';
import { AGENT, CILIUM_HOOKS, ciliumPrograms, ROOT, type TreeProgram } from './agent-fixture.ts';

const HOST_NS = { inode: 4026531835, host: true };
const PRIVATE_NS = { inode: 4026532417, host: false };
const SCOPE = `${ROOT}/kubepods.slice/kubepods-burstable.slice/cri-containerd-9f2c.scope`;
const PINS = '/sys/fs/bpf/cilium/socketlb/links/cgroup';
const NO_LINKS: LinkListing = { links: [] };

/** `bpftool -j cgroup tree` of the given cgroups (empty ones left out, as bpftool does). */
function walk(cgroups: Record<string, TreeProgram[]>): string {
  return JSON.stringify(
    Object.entries(cgroups)
      .filter(([, programs]) => programs.length > 0)
      .map(([cgroup, programs]) => ({ cgroup, programs })),
  );
}

const DEVICE: TreeProgram = { id: 300, attach_type: 'cgroup_device', attach_flags: 'multi', name: '' };

function facts(
  tree: string,
  options: { inode?: number; fsType?: string; namespace?: typeof HOST_NS; links?: LinkListing } = {},
): AgentCgroupFacts {
  return {
    agent: AGENT,
    root: ROOT,
    inode: options.inode ?? 1,
    fsType: options.fsType ?? 'cgroup2fs',
    namespace: options.namespace ?? HOST_NS,
    tree: parseCgroupTree(tree),
    links: options.links ?? NO_LINKS,
  };
}

const codes = (f: AgentCgroupFacts) => judgePlacement(f).map((finding) => finding.code);

describe('judgePlacement: the root', () => {
  it("passes all ten hooks on a cgroup2 root whose inode is 1, runc's device filters below it", () => {
    expect(judgePlacement(facts(walk({ [ROOT]: ciliumPrograms(0, 10, 10), [SCOPE]: [DEVICE] })))).toEqual([]);
  });

  it('passes when the configured root has a trailing slash', () => {
    const f = { ...facts(walk({ [`${ROOT}/`]: ciliumPrograms(0, 10, 10) })), root: `${ROOT}/` };
    expect(judgePlacement(f)).toEqual([]);
  });

  it('flags the broken walk that looks healthy from inside: hooks at the walk root, inode not 1', () => {
    const [finding, ...rest] = judgePlacement(
      facts(walk({ [ROOT]: ciliumPrograms(0, 10, 10) }), { inode: 48213, namespace: PRIVATE_NS }),
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: HOOKS_NOT_ON_ROOT, target: AGENT.node, severity: 'critical' });
    expect(finding?.message).toContain('inode 48213');
    expect(finding?.message).toContain('cgroup:[4026532417] (private)');
    // The Helm fix, then the pins: the restarted agents would keep their hooks where they are.
    const fix = finding?.fix ?? '';
    expect(fix).toContain('--set cgroup.autoMount.enabled=true');
    expect(fix).toContain(`--set cgroup.hostRoot=${ROOT}`);
    expect(fix.indexOf('cgroup.autoMount')).toBeLessThan(fix.indexOf(`rm /host${PINS}/*`));
    expect(fix.indexOf(`rm /host${PINS}/*`)).toBeLessThan(fix.indexOf(`delete pod ${AGENT.name}`));
    expect(fix.indexOf(`delete pod ${AGENT.name}`)).toBeLessThan(fix.indexOf('run this runbook again'));
  });

  it.each([
    ['tmpfs', 'tmpfs'],
    ['an unknown filesystem', 'UNKNOWN (0x62656572)'],
  ])('cannot judge a root on %s, though its inode is 1', (_what, fsType) => {
    const [finding, ...rest] = judgePlacement(facts(walk({ [ROOT]: ciliumPrograms(0, 10, 10) }), { fsType }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: ROOT_NOT_CGROUP2, severity: 'warning' });
    expect(finding?.message).toBe(
      `${AGENT.node}: ${ROOT} is a ${fsType} mount, not cgroup2 (stat -f -c %T), so where the socket-LB hooks sit cannot be judged.`,
    );
  });
});

describe('judgePlacement: hook type by hook type', () => {
  it('flags a set split between the root and a scope, naming the types below and where', () => {
    const tree = walk({ [ROOT]: ciliumPrograms(0, 8, 10), [SCOPE]: [DEVICE, ...ciliumPrograms(8, 10, 30)] });
    const [finding, ...rest] = judgePlacement(facts(tree));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: HOOKS_NOT_ON_ROOT, severity: 'critical' });
    expect(finding?.message).toBe(
      `${AGENT.node}: 2 of Cilium's socket-LB hook types are not on the host's cgroup root ${ROOT}, only below it: ` +
        `getpeername4, getpeername6 on ${SCOPE}. The root has Cilium's connect4, connect6, post_bind4, post_bind6, sendmsg4, sendmsg6, recvmsg4, recvmsg6. ` +
        'Pods outside that cgroup get no ClusterIP translation from those hooks.',
    );
  });

  it('names each group of types with its own cgroups', () => {
    const other = `${ROOT}/kubepods.slice/cri-containerd-77aa.scope`;
    const tree = walk({
      [ROOT]: ciliumPrograms(0, 6, 10),
      [SCOPE]: ciliumPrograms(6, 8, 30),
      [other]: ciliumPrograms(8, 10, 40),
    });
    expect(judgePlacement(facts(tree))[0]?.message).toContain(
      `only below it: recvmsg4, recvmsg6 on ${SCOPE}; getpeername4, getpeername6 on ${other}.`,
    );
  });

  it('flags the whole set below an empty root, with the fix that removes the pins', () => {
    const [finding] = judgePlacement(facts(walk({ [SCOPE]: ciliumPrograms(0, 10, 10) })));
    expect(finding?.code).toBe(HOOKS_NOT_ON_ROOT);
    expect(finding?.message).toContain(
      `10 of Cilium's socket-LB hook types are not on the host's cgroup root ${ROOT}`,
    );
    expect(finding?.message).toContain("The root has none of Cilium's hooks.");
    expect(finding?.fix).toBe(
      `Remove ${AGENT.node}'s pinned socket-LB links, from a debug pod that sees the host's /sys/fs/bpf ` +
        `(kubectl debug node/${AGENT.node} mounts the host's / at /host): ` +
        `kubectl debug node/${AGENT.node} -it --profile=sysadmin --image=busybox -- sh -c 'rm /host${PINS}/*'. ` +
        `Then restart its agent, which attaches them afresh on its cgroup root: kubectl -n kube-system delete pod ${AGENT.name}. ` +
        'Then run this runbook again to confirm: responder run cgroup-root-hooks.',
    );
  });

  it('notes a nested set only when every type below is on the root too, and claims no more', () => {
    const tree = walk({ [ROOT]: ciliumPrograms(0, 10, 10), [SCOPE]: ciliumPrograms(0, 2, 30) });
    const [finding, ...rest] = judgePlacement(facts(tree));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: HOOKS_ALSO_NESTED, severity: 'info' });
    expect(finding?.message).toBe(
      `${AGENT.node}: Cilium's socket-LB hooks are on the host's cgroup root ${ROOT}; connect4, connect6 also sit below it, on ${SCOPE}, and each of those types is on the root too.`,
    );
  });
});

describe("judgePlacement: whose program (foreign ones never stand in for Cilium's)", () => {
  const mesh = (type: string, id: number, name: string): TreeProgram => ({
    id,
    attach_type: type,
    attach_flags: 'multi',
    name,
  });

  it.each([
    ['a named program of another tool', [mesh('cgroup_inet4_connect', 5, 'mesh_connect4')]],
    ['an unnamed program where bpftool prints names', [mesh('cgroup_inet4_connect', 5, '')]],
    ['cgroup_skb and cgroup_device programs', [mesh('cgroup_inet_ingress', 5, 'sd_fw_ingress'), DEVICE]],
  ])("flags Cilium's hooks below the root when the root has %s", (_what, programs) => {
    const [finding, ...rest] = judgePlacement(
      facts(walk({ [ROOT]: programs, [SCOPE]: ciliumPrograms(0, 10, 10) })),
    );
    expect(rest).toEqual([]);
    expect(finding?.code).toBe(HOOKS_NOT_ON_ROOT);
  });

  it("names a foreign program on a socket hook of the root as not Cilium's", () => {
    const tree = walk({ [ROOT]: [mesh('cgroup_inet4_connect', 5, '')], [SCOPE]: ciliumPrograms(0, 10, 10) });
    expect(judgePlacement(facts(tree))[0]?.message).toContain(
      "The root has none of Cilium's hooks, and other tools' an unnamed program (id 5) on connect4, which are not Cilium's.",
    );
  });

  it('reads an unnamed connect4 on the root, beside named programs elsewhere, as no hooks at all', () => {
    const tree = walk({
      [ROOT]: [mesh('cgroup_inet4_connect', 5, '')],
      [SCOPE]: [mesh('cgroup_device', 6, 'sd_devices')],
    });
    expect(codes(facts(tree))).toEqual([HOOKS_MISSING]);
  });

  it("counts unnamed programs as Cilium's where bpftool prints no names at all (old kernels)", () => {
    const unnamed = ciliumPrograms(0, 10, 10).map((program) => ({ ...program, name: '' }));
    expect(judgePlacement(facts(walk({ [ROOT]: [DEVICE, ...unnamed] })))).toEqual([]);
  });

  it("counts Cilium's programs attached with BPF_PROG_ATTACH, whatever their flags", () => {
    const legacy = ciliumPrograms(0, 10, 10).map((program, i) => ({
      ...program,
      attach_flags: ['', 'multi', 'override'][i % 3] as string,
    }));
    expect(judgePlacement(facts(walk({ [ROOT]: legacy })))).toEqual([]);
  });
});

/** `bpftool -j -f link show` with Cilium's pinned links on one cgroup id. */
function links(cgroupId: number, from: number, to: number, progBase: number, linkBase = 80): LinkListing {
  return {
    links: parseLinkShow(
      JSON.stringify(
        CILIUM_HOOKS.slice(from, to).map(([type, name], i) => ({
          id: linkBase + i,
          type: 'cgroup',
          prog_id: progBase + i,
          cgroup_id: cgroupId,
          attach_type: type,
          pinned: [`${PINS}/${name}`],
        })),
      ),
    ),
  };
}

describe('judgePlacement: hooks on a removed cgroup', () => {
  it('reports the links on a cgroup the walk does not reach, naming link ids and programs', () => {
    const [finding, ...rest] = judgePlacement(
      facts(walk({ [SCOPE]: [DEVICE] }), { links: links(9123, 0, 2, 500) }),
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: HOOKS_ON_REMOVED_CGROUP, severity: 'critical' });
    expect(finding?.message).toBe(
      `${AGENT.node}: Cilium's socket-LB links for connect4, connect6 are attached to a cgroup that is not in the tree under ${ROOT}: ` +
        'a removed cgroup, kept alive by sockets opened in it. link 80 (cil_sock4_connect, prog 500, cgroup id 9123), ' +
        'link 81 (cil_sock6_connect, prog 501, cgroup id 9123). ' +
        "The root has none of Cilium's hooks: ClusterIP traffic from every pod here gets no translation from those hooks, and restarting the agent does not move them.",
    );
    expect(finding?.fix).toContain(`rm /host${PINS}/*`);
  });

  it('reports a dead link (cgroup id 0) the same way', () => {
    expect(codes(facts(walk({}), { links: links(0, 0, 10, 500) }))).toEqual([HOOKS_ON_REMOVED_CGROUP]);
  });

  it('does not report links whose programs the walk lists, nor links on the root or a walked cgroup', () => {
    const tree = walk({ [ROOT]: ciliumPrograms(0, 10, 10) });
    expect(judgePlacement(facts(tree, { links: links(1, 0, 10, 10) }))).toEqual([]);
    // Programs the walk did not list (attached since), on a cgroup it did: the root.
    expect(judgePlacement(facts(tree, { links: links(1, 0, 10, 700) }))).toEqual([]);
  });

  it("ignores other tools' links and links of types the root has", () => {
    const foreign = parseLinkShow(
      '[{"id":7,"type":"cgroup","prog_id":900,"cgroup_id":4242,"attach_type":"cgroup_inet4_connect"}]',
    );
    const tree = walk({ [ROOT]: ciliumPrograms(0, 10, 10) });
    expect(judgePlacement(facts(tree, { links: { links: foreign } }))).toEqual([]);
    expect(judgePlacement(facts(tree, { links: links(4242, 0, 10, 500) }))).toEqual([]);
  });

  it('flags a split whose other half is on a removed cgroup', () => {
    expect(
      codes(facts(walk({ [ROOT]: ciliumPrograms(0, 8, 10) }), { links: links(4242, 8, 10, 500) })),
    ).toEqual([HOOKS_ON_REMOVED_CGROUP]);
  });

  it('calls no hooks anywhere with socket LB on critical: ClusterIP is down for every pod', () => {
    const [finding] = judgePlacement(facts(walk({ [SCOPE]: [DEVICE] })));
    expect(finding).toMatchObject({ code: HOOKS_MISSING, severity: 'critical' });
    expect(finding?.message).toContain('ClusterIP traffic from every pod here is not translated.');
    expect(finding?.fix).toContain(`rm /host${PINS}/*`);
  });

  it('says when the links could not be looked for', () => {
    const [finding] = judgePlacement(
      facts(walk({}), {
        links: { error: "bpftool -j -f link show: bpftool: can't get next link: Operation not permitted" },
      }),
    );
    expect(finding?.code).toBe(HOOKS_MISSING);
    expect(finding?.message).toContain(
      "bpftool link show could not be read (bpftool -j -f link show: bpftool: can't get next link: Operation not permitted), so links on a removed cgroup were not looked for.",
    );
  });
});

describe('placementEvidence', () => {
  it('shows the signals, where the hooks sit and the links off the tree', () => {
    const evidence = placementEvidence(
      facts(walk({ [ROOT]: ciliumPrograms(0, 2, 10) }), {
        inode: 48213,
        namespace: PRIVATE_NS,
        links: links(77, 2, 3, 500),
      }),
    );
    expect(evidence.source).toBe(
      `ip-10-0-1-10: stat -c %i, stat -f -c %T ${ROOT}; readlink /proc/self/ns/cgroup; bpftool cgroup tree ${ROOT}; bpftool link show`,
    );
    expect(evidence.text).toBe(
      `inode 48213 (host root: 1), cgroup2fs; namespace cgroup:[4026532417] (private); socket-LB hooks: connect4, connect6 at ${ROOT}; ` +
        'links off the tree: link 80 (cil_sock4_post_bind, prog 500, cgroup id 77); agent container containerd://9f2c',
    );
  });
});
