import { describe, expect, it } from 'vitest';
import { type AgentOverrides, fixtureCluster, run } from '../exec/fixtures.ts';
import { captures, situations } from './captures.ts';
import { normalizeIptables } from './normalize.ts';

/** Each captured iptables situation as the simulator's state (Cilium 1.16's rules, iptables 1.8.9). */
const SIMULATED: Record<string, AgentOverrides> = {
  'nft-host-mark-present': { iptables: { backend: 'nft', hostMarkRule: true } },
  'nft-host-mark-missing': { iptables: { backend: 'nft', hostMarkRule: false } },
  'legacy-host-mark-present': { iptables: { backend: 'legacy', hostMarkRule: true } },
  'legacy-host-mark-missing': { iptables: { backend: 'legacy', hostMarkRule: false } },
  'nft-no-cilium-chains': { iptables: { backend: 'nft', ciliumChains: false, hostMarkRule: false } },
  'legacy-no-cilium-chains': { iptables: { backend: 'legacy', ciliumChains: false, hostMarkRule: false } },
};

describe('the simulated iptables prints what the real one printed (test/fixtures/captured)', () => {
  it('covers every captured iptables situation', () => {
    expect(situations('iptables').sort()).toEqual(Object.keys(SIMULATED).sort());
  });

  it.each(
    captures('iptables').map((capture) => [capture.situation, capture.command.join(' '), capture] as const),
  )('%s: %s', async (situation, _, capture) => {
    const sim = await run(fixtureCluster(SIMULATED[situation]), capture.command);
    expect({
      exitCode: sim.code,
      stdout: normalizeIptables(sim.stdout),
      stderr: normalizeIptables(sim.stderr),
    }).toEqual({
      exitCode: capture.exitCode,
      stdout: normalizeIptables(capture.stdout),
      stderr: normalizeIptables(capture.stderr),
    });
  });
});
