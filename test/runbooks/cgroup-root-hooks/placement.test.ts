import { describe, expect, it } from 'vitest';
import { parseCgroupTree } from '../../../runbooks/cgroup-root-hooks/index.ts';
import {
  type AgentCgroupFacts,
  HOOKS_ALSO_NESTED,
  HOOKS_MISSING,
  HOOKS_NOT_ON_ROOT,
  judgePlacement,
  placementEvidence,
} from '../../../runbooks/cgroup-root-hooks/placement.ts';
import { AGENT, ROOT } from './agent-fixture.ts';

const HOST_NS = { inode: 4026531835, host: true };
const PRIVATE_NS = { inode: 4026532417, host: false };

function hooksAt(path: string): string {
  return `${path}\n2086     connect4        multi           cil_sock4_conne\n2087     connect6        multi           cil_sock6_conne\n`;
}

function facts(inode: number, tree: string, root = ROOT, namespace = HOST_NS): AgentCgroupFacts {
  return { agent: AGENT, root, inode, namespace, tree: parseCgroupTree(tree) };
}

describe('judgePlacement', () => {
  it('passes hooks on a root whose inode is 1', () => {
    expect(judgePlacement(facts(1, hooksAt(ROOT)))).toBeUndefined();
  });

  it('passes when the configured root has a trailing slash', () => {
    expect(judgePlacement(facts(1, hooksAt(`${ROOT}/`), `${ROOT}/`))).toBeUndefined();
    expect(judgePlacement(facts(1, hooksAt(ROOT), `${ROOT}/`))).toBeUndefined();
  });

  it('flags the broken walk that looks healthy from inside: hooks at the walk root, inode not 1', () => {
    const finding = judgePlacement(facts(48213, hooksAt(ROOT), ROOT, PRIVATE_NS));
    expect(finding).toMatchObject({ code: HOOKS_NOT_ON_ROOT, target: AGENT.node, severity: 'critical' });
    expect(finding?.message).toContain('ip-10-0-1-10');
    expect(finding?.message).toContain('inode 48213');
    expect(finding?.message).toContain('cgroup:[4026532417] (private)');
    expect(finding?.fix).toContain('cgroup.autoMount.enabled=true');
    expect(finding?.fix).toContain(`cgroup.hostRoot=${ROOT}`);
    expect(finding?.fix).toContain('kubectl -n kube-system rollout restart daemonset/cilium');
  });

  it('flags a root that is not the host’s even with no hooks under it', () => {
    const finding = judgePlacement(facts(48213, 'CgroupPath\n', ROOT, PRIVATE_NS));
    expect(finding?.code).toBe(HOOKS_NOT_ON_ROOT);
    expect(finding?.message).toContain('no socket-LB hooks are attached under it');
  });

  it('flags hooks below the host root (seen from a host-wide walk)', () => {
    const scope = `${ROOT}/kubepods.slice/kubepods-burstable.slice/cri-containerd-9f2c.scope`;
    const finding = judgePlacement(facts(1, hooksAt(scope).replaceAll('\n2', '\n    2')));
    expect(finding).toMatchObject({ code: HOOKS_NOT_ON_ROOT, severity: 'critical' });
    expect(finding?.message).toContain(`has no socket-LB hooks; 2 sit below it on ${scope}`);
  });

  it('passes hooks on the root with a second set below it, naming the nested set in an info finding', () => {
    const scope = `${ROOT}/kubepods.slice/kubepods-burstable.slice/cri-containerd-9f2c.scope`;
    const below = hooksAt(scope).replaceAll('\n2', '\n    2');
    const finding = judgePlacement(facts(1, `${hooksAt(ROOT)}${below}`));
    expect(finding).toMatchObject({ code: HOOKS_ALSO_NESTED, severity: 'info' });
    expect(finding?.message).toContain(`a second set of 2 sits below it on ${scope}`);
  });

  it("warns when socket LB is on but none of Cilium's hooks is attached", () => {
    const other = `${ROOT}\n1        connect4        multi           mesh_connect4\n`;
    expect(judgePlacement(facts(1, other))).toMatchObject({ code: HOOKS_MISSING, severity: 'warning' });
    expect(judgePlacement(facts(1, 'CgroupPath\n'))?.code).toBe(HOOKS_MISSING);
  });
});

describe('placementEvidence', () => {
  it('shows both signals and where the hooks sit', () => {
    const evidence = placementEvidence(facts(48213, hooksAt(ROOT), ROOT, PRIVATE_NS));
    expect(evidence.source).toBe(
      `ip-10-0-1-10: stat -c %i ${ROOT}; readlink /proc/self/ns/cgroup; bpftool cgroup tree ${ROOT}`,
    );
    expect(evidence.text).toBe(
      `inode 48213 (host root: 1); namespace cgroup:[4026532417] (private); socket-LB hooks: connect4, connect6 at ${ROOT}; agent container containerd://9f2c`,
    );
  });
});
