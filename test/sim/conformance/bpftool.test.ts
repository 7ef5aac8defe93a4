import { describe, expect, it } from 'vitest';
import { AGENT_SCOPE, type AgentOverrides, fixtureCluster, run } from '../exec/fixtures.ts';
import { type Capture, captures, manifest, situations } from './captures.ts';
import { normalizeBpftool } from './normalize.ts';

const BEFORE_PEERNAME = [
  'connect4',
  'connect6',
  'post_bind4',
  'post_bind6',
  'sendmsg4',
  'sendmsg6',
  'recvmsg4',
  'recvmsg6',
];
const PREVIOUS_SCOPE = AGENT_SCOPE.replace(/[0-9a-f]{64}/, 'f'.repeat(64));

/**
 * Each captured cgroup situation as the simulator's state, and the path inside the agent
 * container that shows the same cgroup the capture walked from its mount.
 */
const SIMULATED: Record<string, { state: AgentOverrides; mount: string }> = {
  'hooks-on-root': { state: {}, mount: '/run/cilium/cgroupv2' },
  // The agent's own mount is its scope; the host root is reached through a host-wide /sys/fs/cgroup.
  'hooks-nested-only': {
    state: { cgroup: { mountIsHostRoot: false, privateNamespace: false } },
    mount: '/sys/fs/cgroup',
  },
  'hooks-nested-only-agent-view': {
    state: { cgroup: { mountIsHostRoot: false, privateNamespace: false } },
    mount: '/run/cilium/cgroupv2',
  },
  'hooks-root-and-nested': {
    state: { cgroup: { hookCgroups: ['/', AGENT_SCOPE] } },
    mount: '/run/cilium/cgroupv2',
  },
  'device-filters-only': { state: { socketLB: false }, mount: '/run/cilium/cgroupv2' },
  // Upgraded and restarted: the old types updated in place on the agent's scope, the new ones on the root.
  'split-root-and-scope': {
    state: {
      cgroup: {
        hookCgroups: [
          { cgroup: AGENT_SCOPE, hooks: BEFORE_PEERNAME },
          { cgroup: '/', hooks: ['getpeername4', 'getpeername6'] },
        ],
      },
    },
    mount: '/run/cilium/cgroupv2',
  },
  // The links' cgroup is gone from the tree; sockets opened in it keep it (and the links) alive.
  'removed-scope': {
    state: { cgroup: { hookCgroups: [{ cgroup: PREVIOUS_SCOPE, removed: true }] } },
    mount: '/run/cilium/cgroupv2',
  },
  'removed-split': {
    state: {
      cgroup: {
        hookCgroups: [
          { cgroup: PREVIOUS_SCOPE, hooks: BEFORE_PEERNAME, removed: true },
          { cgroup: '/', hooks: ['getpeername4', 'getpeername6'] },
        ],
      },
    },
    mount: '/run/cilium/cgroupv2',
  },
};

/** Situations the simulator does not model, and why (the runbook's tests read their captures). */
const NOT_SIMULATED: Record<string, string> = {
  'hooks-on-root-kernel-names':
    'programs without BTF: Cilium builds its programs with BTF, so a current bpftool prints their full names',
  'nothing-attached': 'a node with no systemd or runc programs at all',
  'foreign-named-on-root': "another tool's programs: the simulated nodes run only systemd, runc and Cilium",
  'foreign-unnamed-on-root': "another tool's programs: the simulated nodes run only systemd, runc and Cilium",
  ...Object.fromEntries(
    ['none', 'multi', 'override'].flatMap((flags) =>
      ['on-root', 'nested-only'].map((where) => [
        `legacy-${flags}-${where}`,
        'BPF_PROG_ATTACH: the simulated agents are 1.14 or later, which attach links',
      ]),
    ),
  ),
  'root-tmpfs': 'a tmpfs at the cgroup root: the simulated agents always mount cgroup2 there',
  'bpftool-unprivileged': 'the simulated agent is privileged, as the real one',
  'bpftool-missing-path':
    "answered by the simulator's own missing-path errors (test/sim/exec/bpftool.test.ts)",
  'bpftool-absent': 'the simulated agent image ships bpftool, as the real one',
};

/** Machine-specific captures: this VM's hybrid v1/v2 /proc/self/cgroup is not a node's. */
const MACHINE_SPECIFIC = new Set(['cat /proc/self/cgroup']);

describe('the simulated bpftool prints what the real one printed (test/fixtures/captured)', () => {
  it('covers every captured cgroup situation, or says why not', () => {
    expect(situations('cgroup').sort()).toEqual(
      [...Object.keys(SIMULATED), ...Object.keys(NOT_SIMULATED)].sort(),
    );
  });

  // The simulated bpftool prints what the system's build (7.1) prints; other builds differ (5.10
  // names types and links its own way, 7.5 queries attach types in another order).
  const cases = (captures('cgroup') as (Capture & { bpftool: string | null })[]).filter(
    (capture) =>
      capture.situation in SIMULATED &&
      !MACHINE_SPECIFIC.has(capture.command.join(' ')) &&
      (capture.bpftool === null || capture.bpftool === manifest.bpftool),
  );
  it.each(cases.map((capture) => [capture.situation, capture.command.join(' '), capture] as const))(
    '%s: %s',
    async (situation, _, capture) => {
      const { state, mount } = SIMULATED[situation] ?? { state: {}, mount: '' };
      const argv = capture.command.map((arg) =>
        arg.replace(manifest.cgroupMount, mount).replace(manifest.agentScope, AGENT_SCOPE),
      );
      const sim = await run(fixtureCluster(state), argv);
      const normalize = (text: string, walked: string) => normalizeBpftool(text, capture.command, walked);
      expect({
        exitCode: sim.code,
        stdout: normalize(sim.stdout, mount),
        stderr: normalize(sim.stderr, mount),
      }).toEqual({
        exitCode: capture.exitCode,
        stdout: normalize(capture.stdout, manifest.cgroupMount),
        stderr: normalize(capture.stderr, manifest.cgroupMount),
      });
    },
  );
});
