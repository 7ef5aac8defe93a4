import * as z from 'zod';
import { validateOutput } from './command-output.ts';
import { JsonMemberScan } from './json-member.ts';

const COMMAND = 'cilium-dbg status -o json';

const FEATURE = z.object({ enabled: z.boolean().optional() });

/**
 * `kube-proxy-replacement.features` of `cilium-dbg status -o json`. Socket LB is `socketLB` since
 * 1.10; before, the same hooks were `hostReachableServices`. Go's omitempty drops `enabled: false`.
 */
const STATUS = z.object({
  'kube-proxy-replacement': z.object({
    features: z.object({ socketLB: FEATURE.optional(), hostReachableServices: FEATURE.optional() }),
  }),
});

export interface AgentSocketLb {
  enabled: boolean;
  /** The field that said so, for the evidence. */
  field: string;
}

const SECTION = 'kube-proxy-replacement';

/**
 * Whether the agent runs socket LB, from `cilium-dbg status -o json` (`socketLB: {}` when off), or
 * `hostReachableServices` from agents older than 1.10, read as the output arrives (`write` is an
 * exec's `onStdout`). Only its kube-proxy-replacement section is kept: the status lists every node
 * of the cluster (about 400 bytes a node, 39 MB at 100,000 nodes), which held whole was the largest
 * thing a cgroup check held.
 */
export class SocketLbStatusReader {
  readonly #section = new JsonMemberScan(SECTION);

  readonly write = (chunk: Uint8Array): void => this.#section.write(chunk);

  /** The answer once the whole output is written. Status without either field throws: the agent did not say. */
  read(): AgentSocketLb {
    let section: unknown;
    try {
      section = this.#section.end();
    } catch (error) {
      throw new Error(`${COMMAND} printed JSON that does not parse: ${(error as Error).message}`);
    }
    const status = validateOutput(STATUS, section === undefined ? {} : { [SECTION]: section }, COMMAND);
    const { socketLB, hostReachableServices } = status['kube-proxy-replacement'].features;
    const [name, feature] = socketLB
      ? ['socketLB', socketLB]
      : hostReachableServices
        ? ['hostReachableServices', hostReachableServices]
        : [];
    if (!feature)
      throw new Error(
        `${COMMAND} has neither kube-proxy-replacement.features.socketLB nor .hostReachableServices`,
      );
    return { enabled: feature.enabled === true, field: `kube-proxy-replacement.features.${name}.enabled` };
  }
}

/** {@link SocketLbStatusReader} over an output already held whole. */
export function parseSocketLbStatus(output: string | Uint8Array): AgentSocketLb {
  const reader = new SocketLbStatusReader();
  reader.write(typeof output === 'string' ? Buffer.from(output) : output);
  return reader.read();
}

export interface ConfigSocketLb {
  /** Undefined when the config alone cannot tell (`probe` asks the kernel). */
  enabled: boolean | undefined;
  /** The keys that decided, e.g. `kube-proxy-replacement=true`. */
  because: string;
}

/**
 * What cilium-config says about socket LB. `kube-proxy-replacement` `true` (and the older
 * `strict`) turns it on whatever `bpf-lb-sock` says, and `disabled` turns it off; with `false`,
 * `partial` or `probe` an explicit `bpf-lb-sock` decides, and without one `false` means off.
 */
export function socketLbFromConfig(config: Readonly<Record<string, string>>): ConfigSocketLb {
  const kpr = config['kube-proxy-replacement'];
  const sock = config['bpf-lb-sock'];
  if (kpr === 'true' || kpr === 'strict') return { enabled: true, because: `kube-proxy-replacement=${kpr}` };
  if (kpr === 'disabled') return { enabled: false, because: 'kube-proxy-replacement=disabled' };
  if (sock === 'true' || sock === 'false')
    return { enabled: sock === 'true', because: `bpf-lb-sock=${sock}` };
  if (kpr === 'false') return { enabled: false, because: 'kube-proxy-replacement=false, no bpf-lb-sock' };
  return { enabled: undefined, because: `kube-proxy-replacement=${kpr ?? '(unset)'}, no bpf-lb-sock` };
}
