import { goJsonIndent } from '../../format/go-json.ts';
import type { AgentInvocation } from '../../types.ts';
import { flagError, parseFlags, programName, unknownCommand } from '../cobra.ts';
import { buildLine } from './build-info.ts';
import { ciliumMonitor } from './monitor.ts';
import { statusResponse } from './status-response.ts';
import { statusText } from './status-text.ts';

const STATUS_FLAGS = {
  withValue: { '-o': 'output', '--output': 'output' },
  boolean: {
    '--brief': 'brief',
    '--verbose': 'verbose',
    '--all-addresses': 'all',
    '--all-controllers': 'all',
    '--all-health': 'all',
    '--all-nodes': 'all',
    '--all-redirects': 'all',
  },
};

/** Global flags cobra accepts before the subcommand (`cilium-dbg -D status`). */
const GLOBAL_FLAGS = new Set(['-D', '--debug']);

/** `cilium-dbg` (or the older `cilium`): status, version, monitor; anything else is cobra's unknown command. */
export function ciliumCli(invocation: AgentInvocation): number | Promise<number> {
  const { ctx, agent, argv, io } = invocation;
  const program = programName(argv[0] ?? 'cilium-dbg');
  const args = argv.slice(1).filter((arg) => !GLOBAL_FLAGS.has(arg));
  const [command, ...rest] = args;
  switch (command) {
    case 'status': {
      const flags = parseFlags(rest, STATUS_FLAGS);
      if (flags.unknown) {
        io.stderr(flagError(program, 'status', flags.unknown));
        return 1;
      }
      if (flags.values.get('output') === 'json')
        io.stdout(`${goJsonIndent(statusResponse(ctx.cluster, agent))}\n`);
      else if (flags.booleans.has('brief'))
        io.stdout(agent.ready ? 'OK\n' : 'error in cilium: Waiting for initial sync of k8s resources\n');
      else io.stdout(statusText(ctx.cluster, agent));
      return 0;
    }
    case 'version':
      io.stdout(`Client: ${buildLine(agent.ciliumVersion)}\nDaemon: ${buildLine(agent.ciliumVersion)}\n`);
      return 0;
    case 'monitor':
      return ciliumMonitor({ ...invocation, argv: rest }, program);
    case undefined:
      io.stdout(usage(program));
      return 0;
    default:
      io.stderr(unknownCommand(program, command));
      return 1;
  }
}

/** cobra's help for the root command, listing the subcommands the simulated agent answers. */
function usage(program: string): string {
  return `CLI for interacting with the local Cilium Agent

Usage:
  ${program} [command]

Available Commands:
  monitor     Display BPF program events
  status      Display status of daemon
  version     Print version information

Flags:
  -h, --help   help for ${program}

Use "${program} [command] --help" for more information about a command.
`;
}
