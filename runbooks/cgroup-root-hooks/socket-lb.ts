import { z } from 'zod';
import { parseJsonOutput, validateOutput } from './command-output.ts';

const COMMAND = 'cilium-dbg status -o json';

/** `kube-proxy-replacement.features.socketLB` of `cilium-dbg status -o json`; Go's omitempty drops `enabled: false`. */
const STATUS = z.object({
  'kube-proxy-replacement': z.object({
    features: z.object({ socketLB: z.object({ enabled: z.boolean().optional() }) }),
  }),
});

/** Whether the agent runs socket LB, from `cilium-dbg status -o json` (`socketLB: {}` when off). */
export function parseSocketLbStatus(output: string): boolean {
  const status = validateOutput(STATUS, parseJsonOutput(output, COMMAND), COMMAND);
  return status['kube-proxy-replacement'].features.socketLB.enabled === true;
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
