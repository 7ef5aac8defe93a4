import type { IptablesBackend } from '../../../agent-state.ts';
import { simNow } from '../../facts/clock.ts';
import type { AgentInvocation } from '../../types.ts';
import { listRules } from './list-rules.ts';
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

/** The nft tools warn (on stderr, after their output) when the legacy backend holds tables too. */
function legacyTablesWarning(invocation: AgentInvocation, backend: IptablesBackend, tool: string): void {
  if (backend === 'nft' && backendTables(invocation.agent, 'legacy').length > 0) {
    invocation.io.stderr(`# Warning: iptables-legacy tables present, use ${tool} to see them\n`);
  }
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
  legacyTablesWarning(invocation, backend, 'iptables-legacy-save');
  return 0;
}

/** `iptables[-nft|-legacy] [-t TABLE] -S [CHAIN]`: the only listing the runbooks use. */
function runList(invocation: AgentInvocation, backend: IptablesBackend): number {
  const { argv, io, agent } = invocation;
  const version = agent.iptables.version;
  const label = `iptables v${version} (${backend === 'nft' ? 'nf_tables' : 'legacy'})`;
  let table = 'filter';
  let list = false;
  let chain: string | undefined;
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-t' || arg === '--table') table = args[++i] ?? '';
    else if (arg === '-S' || arg === '--list-rules') {
      list = true;
      if (args[i + 1] !== undefined && !args[i + 1]?.startsWith('-')) chain = args[++i];
    }
  }
  if (!list) {
    io.stderr(
      `${label}: no command specified\nTry \`iptables -h' or 'iptables --help' for more information.\n`,
    );
    return 2;
  }
  if (!TABLE_NAMES.includes(table as TableName)) {
    const reason =
      backend === 'nft'
        ? `table '${table}' does not exist`
        : `can't initialize iptables table \`${table}': Table does not exist (do you need to insmod?)`;
    io.stderr(`${label}: ${reason}\nPerhaps iptables or your kernel needs to be upgraded.\n`);
    return 3;
  }
  const name = table as TableName;
  const held = backendTables(agent, backend).find((t) => t.name === name);
  const result = listRules(held, name, BUILTIN_CHAINS[name], chain, version, backend);
  io.stdout(result.stdout);
  io.stderr(result.stderr);
  if (result.code === 0) legacyTablesWarning(invocation, backend, 'iptables-legacy');
  return result.code;
}

export function iptablesNft(invocation: AgentInvocation): number {
  return runList(invocation, 'nft');
}

export function iptablesLegacy(invocation: AgentInvocation): number {
  return runList(invocation, 'legacy');
}

/** The image's `iptables` is the same wrapper as its `iptables-save`: the backend kubelet uses. */
export function iptablesWrapper(invocation: AgentInvocation): number {
  return runList(invocation, wrapperBackend(invocation));
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
  return runSave(invocation, wrapperBackend(invocation), 'iptables-save');
}

function wrapperBackend(invocation: AgentInvocation): IptablesBackend {
  const save = (backend: IptablesBackend, table?: TableName) =>
    saveText(selectTables(invocation, backend, table), header(invocation, backend, 'iptables-save', false));
  return KUBELET_CHAINS.test(save('nft', 'mangle'))
    ? 'nft'
    : KUBELET_CHAINS.test(save('legacy'))
      ? 'legacy'
      : 'nft';
}
