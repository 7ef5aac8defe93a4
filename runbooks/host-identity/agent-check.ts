import type { AgentPod, CiliumFacade, Evidence } from '../../sdk/index.ts';
import { ciliumOutputLines, type HostMarkState, hostMarkState } from './host-mark.ts';
import { parseIptablesSave } from './iptables-save.ts';

/** One agent's filter table, as far as the host mark goes. */
export interface HostMarkReading {
  state: HostMarkState;
  evidence: Evidence;
}

/** The command's own words when it failed: its stderr, else the exec status message. */
export function commandFailure(result: {
  command: string[];
  exitCode: number;
  stderr: Buffer;
  message?: string;
}): Error {
  const said = result.stderr.toString('utf8').trim() || result.message || 'no output';
  return new Error(`${result.command.join(' ')} exited ${result.exitCode}: ${said.slice(0, 300)}`);
}

/** What iptables-nft-save 1.8 says on stderr, printing no table, when the rules live in the legacy tables. */
const LEGACY_TABLES_WARNING =
  /^# Warning: iptables-legacy tables present, use iptables-legacy-save to see them$/m;
const LEGACY_SAVE = ['iptables-legacy-save', '-t', 'filter'];

/**
 * `iptables-save -t filter` in the agent (wrapper, then the nft and legacy tools), parsed; where
 * the nft tool has no filter table and points at the legacy tables, as it does on a legacy node,
 * those. A failed command or unreadable output throws: it must never read as "no rule".
 */
export async function readHostMark(cilium: CiliumFacade, agent: AgentPod): Promise<HostMarkReading> {
  let result = await cilium.iptablesSave(agent, 'filter');
  const pointsAtLegacy = LEGACY_TABLES_WARNING.test(`${result.stderr}\n${result.stdout}`);
  if (result.exitCode === 0 && pointsAtLegacy && !/^\*filter$/m.test(result.stdout.toString('utf8')))
    result = { ...(await cilium.exec(agent, LEGACY_SAVE)), command: LEGACY_SAVE };
  if (result.exitCode !== 0) throw commandFailure(result);
  const save = parseIptablesSave(result.stdout.toString('utf8'));
  const chain = ciliumOutputLines(save);
  const backend = save.generatedBy
    ? `${save.backend} backend (${save.generatedBy})`
    : 'backend unknown (no header)';
  return {
    state: hostMarkState(save),
    evidence: {
      source: `${agent.node}: ${result.command.join(' ')}`,
      text: [backend, ...(chain.length > 0 ? chain : ['no CILIUM_OUTPUT chain in the filter table'])].join(
        '\n',
      ),
    },
  };
}
