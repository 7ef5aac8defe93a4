import { AGENT_CONTAINER, AGENT_SELECTOR, AgentsPerNode, agentCandidate } from './agent-pods.ts';
import { EXIT_NOT_FOUND } from './exec-status.ts';
import { fanOut } from './fan-out.ts';
import type { PackedAgents } from './packed-agents.ts';
import { CILIUM_CONFIG_MAP } from './permissions.ts';
import {
  type AgentPod,
  type AgentResult,
  type CiliumFacade,
  type ExecOptions,
  type ExecResult,
  type FanOutOptions,
  KubeError,
  type KubeFacade,
  RESOURCES,
} from './types.ts';

export const DEFAULT_CILIUM_NAMESPACE = 'kube-system';

type CommandResult = ExecResult & { command: string[] };

/** Caches a promise until it rejects, so a failed read is tried again on the next call. */
function cachedUntilFailure<T>(load: () => Promise<T>): () => Promise<T> {
  let cached: Promise<T> | undefined;
  return () => {
    cached ??= load().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
}

/**
 * The Cilium agents of one cluster, reached through the Kube facade: the agent pods and config
 * (read once per access), commands in the cilium-agent container with fallbacks across agent images
 * (`cilium-dbg` or the older `cilium`; iptables through the image's wrapper, nft or legacy), and a
 * bounded fan-out over all agents.
 */
export class KubeCiliumFacade implements CiliumFacade {
  readonly config: () => Promise<Record<string, string>>;
  /** The agents as read, packed: a run holds them all until it ends. */
  readonly #agents: () => Promise<PackedAgents>;

  constructor(
    private readonly kube: KubeFacade,
    readonly namespace: string = DEFAULT_CILIUM_NAMESPACE,
  ) {
    this.#agents = cachedUntilFailure(async () => {
      // Each pod is packed as its page is read; the list itself keeps nothing. A list started over
      // (410) adds its pods again: one per node is still kept.
      const perNode = new AgentsPerNode();
      await kube.list(RESOURCES.pods, {
        namespace,
        labelSelector: AGENT_SELECTOR,
        project: (pod) => {
          perNode.add(agentCandidate(pod));
          return undefined;
        },
      });
      return perNode.packed();
    });
    this.config = cachedUntilFailure(async () => {
      try {
        const configMap = await kube.get(RESOURCES.configmaps, namespace, CILIUM_CONFIG_MAP);
        return (configMap.data ?? {}) as Record<string, string>;
      } catch (error) {
        if (!(error instanceof KubeError) || error.kind !== 'not-found') throw error;
        throw await this.notInNamespace(error);
      }
    });
  }

  /**
   * A missing cilium-config, said with the namespace it was looked for in and whether any agent
   * runs there: most often the cluster's Cilium lives in another namespace than the one configured.
   */
  private async notInNamespace(error: KubeError): Promise<KubeError> {
    const agents = await this.agents().catch(() => undefined);
    const missing = `configmaps "${CILIUM_CONFIG_MAP}" not found in namespace "${this.namespace}"`;
    const detail =
      agents?.length === 0
        ? `${missing}, and no Cilium agent pods (${AGENT_SELECTOR}) were found there: is Cilium installed in another namespace? (ciliumNamespace, --cilium-namespace)`
        : missing;
    return new KubeError(error.kind, error.verb, error.resource, detail, error.status);
  }

  /** Made anew from the packed list on each call: a caller holds them only while it uses them. */
  async agents(): Promise<AgentPod[]> {
    return (await this.#agents()).all();
  }

  async findAgent(test: (agent: AgentPod) => boolean): Promise<AgentPod | undefined> {
    const agents = await this.#agents();
    for (let index = 0; index < agents.length; index++) {
      const agent = agents.at(index) as AgentPod;
      if (test(agent)) return agent;
    }
    return undefined;
  }

  exec(agent: AgentPod, command: string[], options?: ExecOptions): Promise<ExecResult> {
    return this.kube.exec(agent.namespace, agent.name, AGENT_CONTAINER, command, options);
  }

  async execFirst(agent: AgentPod, alternatives: string[][], options?: ExecOptions): Promise<CommandResult> {
    for (const [index, command] of alternatives.entries()) {
      const result = { ...(await this.exec(agent, command, options)), command };
      const last = index === alternatives.length - 1;
      if (result.exitCode !== EXIT_NOT_FOUND || last) return result;
    }
    throw new Error('execFirst needs at least one command');
  }

  /** Releases before 1.15 ship only `cilium`; newer ones `cilium-dbg` (and maybe a `cilium` link). */
  dbg(agent: AgentPod, args: string[], options?: ExecOptions): Promise<CommandResult> {
    return this.execFirst(
      agent,
      [
        ['cilium-dbg', ...args],
        ['cilium', ...args],
      ],
      options,
    );
  }

  /**
   * The `iptables-save` wrapper picks the backend kubelet uses (as kubernetes-sigs/iptables-wrappers
   * does); images without it still have the backend-specific tools.
   */
  iptablesSave(agent: AgentPod, table: string, options?: ExecOptions): Promise<CommandResult> {
    const args = ['-t', table];
    return this.execFirst(
      agent,
      [
        ['iptables-save', ...args],
        ['iptables-nft-save', ...args],
        ['iptables-legacy-save', ...args],
      ],
      options,
    );
  }

  async forEachAgent<T>(
    work: (agent: AgentPod, index: number) => Promise<T>,
    options?: FanOutOptions,
  ): Promise<AgentResult<T>[]> {
    return fanOut(await this.#agents(), work, options);
  }
}
