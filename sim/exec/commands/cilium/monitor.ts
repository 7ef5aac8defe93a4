import { setTimeout as sleep } from 'node:timers/promises';
import type { DropEvent } from '../../../agent-state.ts';
import { stableNumber } from '../../format/hash.ts';
import type { AgentInvocation } from '../../types.ts';
import { flagError, parseFlags } from '../cobra.ts';
import { identityName } from './identity.ts';
import { nodeCpus } from './node-cpus.ts';

/** A safety net: an unbounded monitor ends by itself rather than holding a session forever. */
const MONITOR_SELF_STOP_MS = 60_000;

const EVENT_TYPES = [
  'agent',
  'capture',
  'debug',
  'drop',
  'l7',
  'policy-verdict',
  'recorder',
  'trace',
  'trace-sock',
];

const MONITOR_FLAGS = {
  withValue: { '-t': 'type', '--type': 'type', '--from': 'from', '--to': 'to', '--related-to': 'related' },
  boolean: { '-n': 'numeric', '--numeric': 'numeric', '-v': 'verbose', '--verbose': 'verbose' },
};

/**
 * `cilium-dbg monitor [--type drop] [-n]`: the header (stderr for cilium-dbg, stdout for the old
 * `cilium` binary), one line per simulated drop in DropNotify.DumpInfo's format, then idle
 * streaming until the session or a `timeout` ends it.
 */
export async function ciliumMonitor(
  { ctx, agent, argv, io }: AgentInvocation,
  program: string,
): Promise<number> {
  const flags = parseFlags(argv, MONITOR_FLAGS);
  if (flags.unknown) {
    io.stderr(flagError(program, 'monitor', flags.unknown));
    return 1;
  }
  const type = flags.values.get('type');
  if (type !== undefined && !EVENT_TYPES.includes(type)) {
    io.stdout(`Unknown type (${type}). Please use one of the following ones [${EVENT_TYPES.join(' ')}]\n`);
    return 1;
  }
  const header = program === 'cilium' && agent.cli === 'cilium-only' ? io.stdout : io.stderr;
  header(`Listening for events on ${nodeCpus(ctx.cluster, agent.node)} CPUs with 64x4096 of shared memory\n`);
  header('Press Ctrl-C to quit\n');
  if (type === undefined || type === 'drop') {
    const numeric = flags.booleans.has('numeric');
    for (const drop of agent.drops) io.stdout(dropLine(drop, numeric));
  }
  try {
    await sleep(MONITOR_SELF_STOP_MS, undefined, { signal: io.signal });
  } catch {
    // Interrupted: the session closed or timeout killed the process.
  }
  return 0;
}

/**
 * pkg/monitor/datapath_drop.go DumpInfo:
 * `xx drop (%s) flow %#x to endpoint %d, ifindex %d, file %s:%d, ` + `, identity %s->%s` + `: %s`.
 */
function dropLine(drop: DropEvent, numeric = false): string {
  const seed = `${drop.source}>${drop.destination}`;
  const flow = stableNumber(seed).toString(16);
  const ifindex = (drop.endpointId % 40) + 3;
  const src = identityName(drop.sourceIdentity, numeric);
  const dst = identityName(drop.destinationIdentity, numeric);
  return `xx drop (${drop.reason}) flow 0x${flow} to endpoint ${drop.endpointId}, ifindex ${ifindex}, file bpf_lxc.c:2118, , identity ${src}->${dst}: ${drop.source} -> ${drop.destination} ${drop.summary}\n`;
}
