import type { AgentPod, CiliumFacade } from '../../sdk/index.ts';
import { commandFailure } from './agent-check.ts';
import { type Drop, parseDrops } from './drops.ts';

/** coreutils `timeout` exits 124 when it stopped the command: the normal end of a bounded monitor. */
const TIMED_OUT = 124;

/**
 * `timeout <s> cilium-dbg monitor --type drop` (or the older `cilium`) in the agent: the drops it
 * saw in that window. The monitor streams until stopped, so `timeout` bounds it in the agent.
 */
export async function watchDrops(cilium: CiliumFacade, agent: AgentPod, seconds: number): Promise<Drop[]> {
  const monitor = (cli: string) => ['timeout', String(seconds), cli, 'monitor', '--type', 'drop'];
  const result = await cilium.execFirst(agent, [monitor('cilium-dbg'), monitor('cilium')], {
    timeoutMs: (seconds + 15) * 1000,
  });
  if (result.exitCode !== TIMED_OUT && result.exitCode !== 0) throw commandFailure(result);
  return parseDrops(result.stdout.toString('utf8'));
}
