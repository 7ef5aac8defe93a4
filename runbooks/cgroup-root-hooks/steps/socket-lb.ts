import { type AgentPod, type CiliumFacade, defineStep, type Evidence, outcome } from '../../../sdk/index.ts';
import { failureText } from '../command-output.ts';
import type { CgroupRootHooksParams } from '../params.ts';
import { SocketLbStatusReader, socketLbFromConfig } from '../socket-lb.ts';

/** What the `socket-lb` step decided, for the steps after it. */
export interface SocketLbDecision {
  enabled: boolean;
  /** Why, in a few words, e.g. `ip-10-0-1-10 reports it on`. */
  because: string;
}

/** What the steps of one run hand each other. */
export interface CgroupRootState {
  socketLb?: SocketLbDecision;
}

export function socketLbDecision(state: CgroupRootState): SocketLbDecision {
  if (!state.socketLb) throw new Error('the socket-lb step has not decided whether socket LB is on');
  return state.socketLb;
}

const CONFIG_KEYS = ['kube-proxy-replacement', 'bpf-lb-sock', 'bpf-lb-sock-hostns-only', 'cgroup-root'];

export type AgentStatus = { node: string; evidence: Evidence } & (
  | { ok: true; enabled: boolean }
  | { ok: false }
);

const onOff = (enabled: boolean) => (enabled ? 'on' : 'off');

/** One agent's own view (the config may not be what it runs); a failure falls back to the config. */
async function agentStatus(cilium: CiliumFacade, agent: AgentPod): Promise<AgentStatus> {
  const { node } = agent;
  try {
    const status = new SocketLbStatusReader();
    const result = await cilium.dbg(agent, ['status', '-o', 'json'], { onStdout: status.write });
    const source = `${node}: ${result.command.join(' ')}`;
    if (result.exitCode !== 0) return { node, ok: false, evidence: { source, text: failureText(result) } };
    const { enabled, field } = status.read();
    return { node, ok: true, enabled, evidence: { source, text: `${field}: ${enabled}` } };
  } catch (error) {
    return {
      node,
      ok: false,
      evidence: { source: `${node}: cilium-dbg status -o json`, text: (error as Error).message },
    };
  }
}

/** The agent's word first; the config when no agent answers; when neither can tell, check anyway. */
export function decideSocketLb(
  config: Record<string, string>,
  status: AgentStatus | undefined,
): SocketLbDecision {
  const fromConfig = socketLbFromConfig(config);
  if (status?.ok) {
    const disagrees =
      fromConfig.enabled !== undefined && fromConfig.enabled !== status.enabled
        ? `, though cilium-config ${fromConfig.because} says ${onOff(fromConfig.enabled)}`
        : '';
    return {
      enabled: status.enabled,
      because: `${status.node} reports it ${onOff(status.enabled)}${disagrees}`,
    };
  }
  const unread = status ? `${status.node} status unreadable` : 'no agent to ask';
  if (fromConfig.enabled === undefined) {
    return {
      enabled: true,
      because: `cannot tell: cilium-config ${fromConfig.because}, ${unread}; checking anyway`,
    };
  }
  return { enabled: fromConfig.enabled, because: `cilium-config ${fromConfig.because}; ${unread}` };
}

/** Step 1: socket LB is what the broken mount breaks; without it there is nothing to check. */
export const socketLbStep = defineStep<CgroupRootHooksParams, CgroupRootState>({
  id: 'socket-lb',
  title: 'Is socket LB on?',
  writes: false,
  async run(ctx) {
    const config = await ctx.cilium.config();
    const sample =
      (await ctx.cilium.findAgent((agent) => agent.ready)) ?? (await ctx.cilium.findAgent(() => true));
    const status = sample ? await agentStatus(ctx.cilium, sample) : undefined;
    const decision = decideSocketLb(config, status);
    ctx.state.socketLb = decision;
    const evidence: Evidence[] = [
      {
        source: 'cilium-config',
        text: CONFIG_KEYS.map((key) => `${key}=${config[key] ?? '(unset)'}`).join(' '),
      },
      ...(status ? [status.evidence] : []),
    ];
    const summary = decision.enabled
      ? `socket LB is on (${decision.because})`
      : `socket LB is off (${decision.because}): the socket hooks are not in use, nothing to check`;
    return outcome('pass', summary, { evidence });
  },
});
