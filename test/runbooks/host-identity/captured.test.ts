import { describe, expect, it } from 'vitest';
import { readHostMark } from '../../../runbooks/host-identity/agent-check.ts';
import { hostMarkState } from '../../../runbooks/host-identity/host-mark.ts';
import { parseIptablesSave } from '../../../runbooks/host-identity/index.ts';
import type { AgentPod, CiliumFacade, ExecResult } from '../../../src/cluster/types.ts';
import { type Capture, captures } from '../../sim/conformance/captures.ts';

/**
 * The host-mark readers over what the real iptables 1.8.9 printed in a network namespace with
 * Cilium's chains loaded through each backend (test/fixtures/captured, `npm run capture`).
 * Situations are `<backend>-<state>`: the backend that holds Cilium's rules, and whether the
 * host-mark rule is there.
 */
const all = captures('iptables');
const STATE = {
  'host-mark-present': 'present',
  'host-mark-missing': 'rule-missing',
  'no-cilium-chains': 'no-cilium-chains',
} as const;

function stateOf(situation: string): (typeof STATE)[keyof typeof STATE] {
  return STATE[situation.replace(/^(nft|legacy)-/, '') as keyof typeof STATE];
}

const backendOf = (situation: string) => situation.split('-')[0] as 'nft' | 'legacy';
const isSave = (capture: Capture) => capture.command[0]?.endsWith('-save') ?? false;
/** The tool that reads the backend holding the rules (`iptables-save` is the nft one on Debian). */
const readsRules = (capture: Capture) =>
  (capture.command[0] ?? '').includes(backendOf(capture.situation)) ||
  (backendOf(capture.situation) === 'nft' && !capture.command[0]?.includes('legacy'));

describe('iptables-save of the backend that holds the rules, real captures', () => {
  const saves = all.filter((capture) => isSave(capture) && readsRules(capture));
  it.each(saves.map((c) => [c.situation, c.command.join(' '), c] as const))(
    '%s: %s',
    (situation, _c, capture) => {
      expect(hostMarkState(parseIptablesSave(capture.stdout))).toBe(stateOf(situation));
    },
  );
});

describe('iptables -S, real captures: shows the rule, never proves it absent', () => {
  const listings = all.filter((capture) => !isSave(capture) && readsRules(capture) && capture.exitCode === 0);
  it.each(listings.map((c) => [c.situation, c.command.join(' '), c] as const))(
    '%s: %s',
    (situation, _c, capture) => {
      const judge = () => hostMarkState(parseIptablesSave(capture.stdout));
      // A whole-table listing shows the feeder too; a single chain's does not.
      if (stateOf(situation) === 'present' && !capture.command.includes('CILIUM_OUTPUT'))
        expect(judge()).toBe('present');
      else expect(judge).toThrow(/not checked|printed nothing/);
    },
  );
});

describe('the other backend, real captures: never a verdict', () => {
  const others = all.filter((capture) => !readsRules(capture));
  it.each(others.map((c) => [c.situation, c.command.join(' '), c] as const))('%s: %s', (_s, _c, capture) => {
    expect(() => hostMarkState(parseIptablesSave(capture.stdout))).toThrow();
  });
});

describe('readHostMark on a legacy node whose image lacks the iptables-save wrapper', () => {
  it.each(Object.keys(STATE))(
    'follows iptables-nft-save to the legacy tables it points at: %s',
    async (state) => {
      const situation = `legacy-${state}`;
      const out = (tool: string) => {
        const capture = all.find((c) => c.situation === situation && c.command.join(' ') === tool) as Capture;
        return {
          stdout: Buffer.from(capture.stdout),
          stderr: Buffer.from(capture.stderr),
          exitCode: capture.exitCode,
        };
      };
      const agent = { node: 'ip-10-0-1-10', name: 'cilium-x', namespace: 'kube-system' } as AgentPod;
      const cilium = {
        // No wrapper: the nft tool answers first, with only its warning.
        iptablesSave: async () => ({
          ...out('iptables-nft-save'),
          command: ['iptables-nft-save', '-t', 'filter'],
        }),
        exec: async (_agent: AgentPod, command: string[]): Promise<ExecResult> =>
          out(command.join(' ').replace(' -t filter', ' -t filter')),
      } as unknown as CiliumFacade;
      const reading = await readHostMark(cilium, agent);
      expect(reading.state).toBe(stateOf(situation));
      expect(reading.evidence.source).toBe('ip-10-0-1-10: iptables-legacy-save -t filter');
    },
  );
});
