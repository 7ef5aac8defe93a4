import type { IptablesBackend } from '../../../agent-state.ts';
import { simNow } from '../../facts/clock.ts';
import type { AgentInvocation } from '../../types.ts';
import { BUILTIN_CHAINS, backendTables, type Table, type TableName } from './rules.ts';
import { type SaveHeader, saveText } from './save-format.ts';

const TABLE_NAMES = Object.keys(BUILTIN_CHAINS) as TableName[];

interface SaveArgs {
  table?: string;
  counters: boolean;
}

function parseArgs(args: string[]): SaveArgs {
  const parsed: SaveArgs = { counters: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-t' || arg === '--table') parsed.table = args[++i];
    else if (arg.startsWith('--table=')) parsed.table = arg.slice('--table='.length);
    else if (arg.startsWith('-t') && arg.length > 2) parsed.table = arg.slice(2);
    else if (arg === '-c' || arg === '--counters') parsed.counters = true;
  }
  return parsed;
}

/** The tables a save prints: all existing ones, or the named one (legacy creates it empty; nft prints nothing). */
function selectTables(
  invocation: AgentInvocation,
  backend: IptablesBackend,
  table: string | undefined,
): Table[] {
  const tables = backendTables(invocation.agent, backend);
  if (table === undefined) return tables;
  const existing = tables.find((t) => t.name === table);
  if (existing) return [existing];
  const name = table as TableName;
  return backend === 'legacy'
    ? [{ name, builtinChains: BUILTIN_CHAINS[name], userChains: [], rules: [] }]
    : [];
}

function header(
  invocation: AgentInvocation,
  backend: IptablesBackend,
  program: string,
  ruleCounters: boolean,
): SaveHeader {
  const { agent, ctx } = invocation;
  return {
    program,
    version: backend === 'nft' ? `${agent.iptables.version} (nf_tables)` : agent.iptables.version,
    date: simNow(ctx.cluster),
    seed: `${agent.node}/${backend}`,
    ruleCounters,
  };
}

function runSave(invocation: AgentInvocation, backend: IptablesBackend, program: string): number {
  const { argv, io } = invocation;
  const args = parseArgs(argv.slice(1));
  if (args.table !== undefined && !TABLE_NAMES.includes(args.table as TableName)) {
    io.stderr(`${program}: unknown table '${args.table}'\n`);
    return 1;
  }
  const tables = selectTables(invocation, backend, args.table);
  io.stdout(saveText(tables, header(invocation, backend, program, args.counters)));
  return 0;
}

export function iptablesNftSave(invocation: AgentInvocation): number {
  return runSave(invocation, 'nft', 'iptables-nft-save');
}

/** The legacy save prints its program name as `iptables-save` whatever link it was called by. */
export function iptablesLegacySave(invocation: AgentInvocation): number {
  return runSave(invocation, 'legacy', 'iptables-save');
}

const KUBELET_CHAINS = /^:(KUBE-IPTABLES-HINT|KUBE-KUBELET-CANARY)/m;

/**
 * The image's `iptables-save` is kubernetes-sigs/iptables-wrappers: nft if `iptables-nft-save -t
 * mangle` shows kubelet's chains, else legacy if `iptables-legacy-save` does, else nft; then it
 * runs that backend's save under the name `iptables-save`.
 */
export function iptablesSaveWrapper(invocation: AgentInvocation): number {
  const save = (backend: IptablesBackend, table?: TableName) =>
    saveText(selectTables(invocation, backend, table), header(invocation, backend, 'iptables-save', false));
  const backend: IptablesBackend = KUBELET_CHAINS.test(save('nft', 'mangle'))
    ? 'nft'
    : KUBELET_CHAINS.test(save('legacy'))
      ? 'legacy'
      : 'nft';
  return runSave(invocation, backend, 'iptables-save');
}
