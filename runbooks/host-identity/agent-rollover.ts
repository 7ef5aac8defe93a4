import {
  AGENT_SELECTOR,
  type AgentPod,
  agentCandidate,
  RESOURCES,
  type StepContext,
} from '../../sdk/index.ts';
import { type HostMarkReading, readHostMark } from './agent-check.ts';
import { nextLook } from './next-look.ts';

/** Where a restarted node got to: its new agent (if one is Ready) and what its iptables say. */
export interface Rollover {
  agent?: AgentPod;
  reading?: HostMarkReading;
  /** Why the last look failed, when it did. */
  error?: Error;
}

/** What polling needs from a step's context. */
type PollContext = Pick<StepContext<unknown>, 'kube' | 'cilium' | 'signal'>;

/** The node's agent pod that replaced `oldUid`, once it is Ready (the old one may linger, Terminating). */
async function replacement(ctx: PollContext, node: string, oldUid: string): Promise<AgentPod | undefined> {
  const candidates = await ctx.kube.list(RESOURCES.pods, {
    namespace: ctx.cilium.namespace,
    labelSelector: AGENT_SELECTOR,
    fieldSelector: `spec.nodeName=${node}`,
    project: agentCandidate,
  });
  const fresh = candidates.find((c) => c !== undefined && c.uid !== oldUid && c.ready);
  if (!fresh) return undefined;
  const { deleting: _deleting, createdAt: _createdAt, ...agent } = fresh;
  return agent;
}

/**
 * Polls until the node's new agent is Ready and has the host mark rule, or `timeoutMs` passes
 * (or the run's deadline). Returns the last thing seen, so a report can say how far it got.
 */
export async function awaitHostMark(
  ctx: PollContext,
  node: string,
  oldUid: string,
  timeoutMs: number,
): Promise<Rollover> {
  const endsAt = Date.now() + timeoutMs;
  let seen: Rollover = {};
  for (;;) {
    let agent: AgentPod | undefined;
    try {
      agent = await replacement(ctx, node, oldUid);
      seen = agent ? { agent, reading: await readHostMark(ctx.cilium, agent) } : {};
      if (seen.reading?.state === 'present') return seen;
    } catch (error) {
      seen = {
        ...(agent ? { agent } : {}),
        error: error instanceof Error ? error : new Error(String(error)),
      };
    }
    if (!(await nextLook(ctx.signal, endsAt))) return seen;
  }
}
