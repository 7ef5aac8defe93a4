import { AGENT_CONTAINER } from '../cluster.ts';
import { bpftool } from './commands/bpftool/cli.ts';
import { ciliumCli } from './commands/cilium/cli.ts';
import { ciliumHealth } from './commands/cilium-health/cli.ts';
import { echo, falseProgram, hostname, trueProgram, uname } from './commands/coreutils/basic.ts';
import { cat } from './commands/coreutils/cat.ts';
import { readlink } from './commands/coreutils/readlink.ts';
import { stat } from './commands/coreutils/stat.ts';
import { timeout } from './commands/coreutils/timeout.ts';
import { hasBinary } from './commands/fs/binaries.ts';
import { lookupPath } from './commands/fs/container-fs.ts';
import {
  iptablesLegacy,
  iptablesLegacySave,
  iptablesNft,
  iptablesNftSave,
  iptablesSaveWrapper,
  iptablesWrapper,
} from './commands/iptables/cli.ts';
import { sh } from './commands/sh/cli.ts';
import { ExecStartError } from './start-error.ts';
import type { AgentProgram, CommandContext, CommandIO, Program } from './types.ts';

/** What every simulated container has. */
const BASIC_PROGRAMS: Record<string, Program> = {
  cat,
  echo,
  false: falseProgram,
  hostname,
  sh,
  true: trueProgram,
};

/** What only the Cilium agent image has (which CLI names it has depends on the release). */
const AGENT_PROGRAMS: Record<string, AgentProgram> = {
  bpftool,
  cilium: ciliumCli,
  'cilium-dbg': ciliumCli,
  'cilium-health': ciliumHealth,
  iptables: iptablesWrapper,
  'iptables-legacy': iptablesLegacy,
  'iptables-legacy-save': iptablesLegacySave,
  'iptables-nft': iptablesNft,
  'iptables-nft-save': iptablesNftSave,
  'iptables-save': iptablesSaveWrapper,
  readlink,
  stat,
  timeout,
  uname,
};

function resolveProgram(ctx: CommandContext, name: string): Program | undefined {
  if (name.includes('/')) {
    const entry = lookupPath(ctx, name);
    if (entry?.kind !== 'file' && entry?.kind !== 'symlink') return undefined;
  }
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (!hasBinary(ctx, base)) return undefined;
  const agent = ctx.agent;
  const agentProgram = AGENT_PROGRAMS[base];
  if (agent && agentProgram) return (invocation) => agentProgram({ ...invocation, agent });
  return BASIC_PROGRAMS[base];
}

/**
 * Runs a simulated command in a container and resolves to its exit code. The agent container
 * (`cilium-agent` of an agent pod) answers from its AgentState; other containers have only a few
 * basic tools. A program the container does not have throws ExecStartError, as runc fails to start it.
 */
export async function runCommand(ctx: CommandContext, argv: string[], io: CommandIO): Promise<number> {
  const context: CommandContext = {
    ...ctx,
    agent: ctx.agent ?? (ctx.container === AGENT_CONTAINER ? ctx.cluster.agentForPod(ctx.pod) : undefined),
  };
  const name = argv[0] ?? '';
  const program = resolveProgram(context, name);
  if (!program) throw new ExecStartError(name);
  return program({
    ctx: context,
    argv,
    io,
    run: (childArgv, childIo) => runCommand(context, childArgv, childIo),
  });
}
