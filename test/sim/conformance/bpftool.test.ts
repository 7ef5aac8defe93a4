import { describe, expect, it } from 'vitest';
import { AGENT_SCOPE, type AgentOverrides, fixtureCluster, run } from '../exec/fixtures.ts';
import { captures, manifest, situations } from './captures.ts';
import { normalizeBpftool } from './normalize.ts';

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
};

/** Situations the simulator does not model, and why. */
const NOT_SIMULATED: Record<string, string> = {
  'hooks-on-root-kernel-names':
    'programs without BTF: Cilium builds its programs with BTF, so a current bpftool prints their full names',
  'nothing-attached': 'a node with no systemd or runc programs at all',
};

/** Machine-specific captures: this VM's hybrid v1/v2 /proc/self/cgroup is not a node's. */
const MACHINE_SPECIFIC = new Set(['cat /proc/self/cgroup']);

describe('the simulated bpftool prints what the real one printed (test/fixtures/captured)', () => {
  it('covers every captured cgroup situation, or says why not', () => {
    expect(situations('cgroup').sort()).toEqual(
      [...Object.keys(SIMULATED), ...Object.keys(NOT_SIMULATED)].sort(),
    );
  });

  const cases = captures('cgroup').filter(
    (capture) => capture.situation in SIMULATED && !MACHINE_SPECIFIC.has(capture.command.join(' ')),
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
