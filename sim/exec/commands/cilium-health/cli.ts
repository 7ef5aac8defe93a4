import { goJsonIndent } from '../../format/go-json.ts';
import { tabwrite } from '../../format/tabwriter.ts';
import type { AgentInvocation } from '../../types.ts';
import { flagError, parseFlags, programName, unknownCommand } from '../cobra.ts';
import { healthStatusResponse } from './health-response.ts';
import { formatHealthStatus } from './health-text.ts';

const STATUS_FLAGS = {
  withValue: { '-o': 'output', '--output': 'output' },
  boolean: { '--probe': 'probe', '--succinct': 'succinct', '--verbose': 'verbose' },
};

/** `cilium-health status [-o json] [--verbose]`, answered from the agent's health state. */
export function ciliumHealth({ ctx, agent, argv, io }: AgentInvocation): number {
  const name = programName(argv[0] ?? 'cilium-health');
  const [command, ...rest] = argv.slice(1);
  if (command !== 'status' && command !== 'connectivity') {
    io.stderr(unknownCommand(name, command ?? ''));
    return 1;
  }
  const flags = parseFlags(rest, STATUS_FLAGS);
  if (flags.unknown) {
    io.stderr(flagError(name, 'status', flags.unknown));
    return 1;
  }
  const response = healthStatusResponse(ctx.cluster, agent);
  if (flags.values.get('output') === 'json') {
    io.stdout(`${goJsonIndent(response)}\n`);
    return 0;
  }
  const text = formatHealthStatus(response, {
    allNodes: true,
    verbose: flags.booleans.has('verbose'),
    maxLines: 0,
  });
  io.stdout(tabwrite(text, { minWidth: 2, padding: 3 }));
  return 0;
}
