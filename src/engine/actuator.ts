import { parseLabelSelector } from '../cluster/label-selector.ts';
import {
  type CiliumFacade,
  KubeError,
  type KubeFacade,
  type KubeObject,
  RESOURCES,
} from '../cluster/types.ts';
import type { Actuator, Brake, DoneAction, Limits, Logger, Mode, PodTarget } from './types.ts';

/** The label the AWS VPC CNI DaemonSet always carries: its pods are never touched. */
export const AWS_NODE_SELECTOR = 'k8s-app=aws-node';
export const AGENT_NOT_READY_TAINT = 'node.cilium.io/agent-not-ready';
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

export interface ActuatorOptions {
  cluster: string;
  kube: KubeFacade;
  cilium: CiliumFacade;
  mode: Mode;
  limits: Limits;
  brake: Brake;
  log: Logger;
  /** `<action>:<target>` keys a person approved; only these act in `approve` and for agent restarts. */
  approved?: ReadonlySet<string>;
}

interface PodView {
  uid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  hostNetwork: boolean;
  ownerKinds: string[];
}

function podView(pod: KubeObject): PodView {
  const spec = (pod.spec ?? {}) as { hostNetwork?: boolean };
  return {
    uid: pod.metadata.uid,
    labels: pod.metadata.labels ?? {},
    annotations: pod.metadata.annotations ?? {},
    hostNetwork: spec.hostNetwork === true,
    ownerKinds: (pod.metadata.ownerReferences ?? []).map((owner) => owner.kind),
  };
}

export function actionKey(action: string, target: string): string {
  return `${action}:${target}`;
}

/**
 * The one door for cluster writes. Every decision, including each refusal, comes back as a
 * DoneAction with its reason, so a report shows what was done and what was left alone and why.
 */
export function createActuator(options: ActuatorOptions): Actuator {
  const { kube, cilium, limits, log } = options;
  const counts = { evictions: 0, agentRestarts: 0 };

  /** Why this pod must not be touched, or undefined when it may be. */
  async function exclusion(target: PodTarget, pod: PodView): Promise<string | undefined> {
    for (const selector of [AWS_NODE_SELECTOR, ...limits.excludeSelectors]) {
      if (parseLabelSelector(selector)(pod.labels)) return `excluded by selector ${selector}`;
    }
    if (pod.hostNetwork) return 'hostNetwork pod (Cilium never manages it)';
    if (pod.annotations[MIRROR_ANNOTATION] || pod.ownerKinds.includes('Node')) return 'static (mirror) pod';
    const node = await kube.get(RESOURCES.nodes, undefined, target.node);
    const taints = ((node.spec as { taints?: { key: string }[] } | undefined)?.taints ?? []).map(
      (t) => t.key,
    );
    if (taints.includes(AGENT_NOT_READY_TAINT))
      return `node ${target.node} still has the ${AGENT_NOT_READY_TAINT} taint`;
    const agent = (await cilium.agents()).find((a) => a.node === target.node);
    if (!agent?.ready) return `the Cilium agent on ${target.node} is not ready`;
    return undefined;
  }

  /**
   * Cap, mode, approval and brake, in that order; undefined means go. The cap counts planned
   * writes too, so a dry-run plan shows exactly what `auto` would do.
   */
  async function gate(
    action: string,
    target: string,
    cap: { used: number; max: number },
    needsApproval: boolean,
  ) {
    if (cap.used >= cap.max)
      return { outcome: 'skipped' as const, detail: `over the per-run cap of ${cap.max}` };
    const approved = options.approved?.has(actionKey(action, target)) ?? false;
    if (options.mode === 'dry-run') return { outcome: 'planned' as const, detail: 'dry-run' };
    if ((options.mode === 'approve' || needsApproval) && !approved) {
      return { outcome: 'planned' as const, detail: 'needs approval' };
    }
    if (!(await options.brake.tryWrite(options.cluster))) {
      return { outcome: 'blocked' as const, detail: 'brake engaged: too many cluster writes in this window' };
    }
    return undefined;
  }

  /** A server-side dry run tells a plan which evictions a PodDisruptionBudget would refuse. */
  async function previewEviction(target: PodTarget): Promise<string | undefined> {
    try {
      const preview = await kube.evict(target.namespace, target.name, { uid: target.uid, dryRun: true });
      return preview.outcome === 'blocked-by-pdb' ? preview.message : undefined;
    } catch (error) {
      log.warn('eviction preview failed; PodDisruptionBudgets not checked', { error: String(error) });
      return undefined;
    }
  }

  function record(done: DoneAction): DoneAction {
    log.info('actuator decision', { ...done });
    return done;
  }

  return {
    async evictPod(target, reason) {
      const action = 'evict-pod';
      const where = `${target.namespace}/${target.name}`;
      const result = (outcome: DoneAction['outcome'], detail?: string) =>
        record({ action, target: where, outcome, ...(detail ? { detail } : {}) });
      try {
        const pod = podView(await kube.get(RESOURCES.pods, target.namespace, target.name));
        if (pod.uid !== target.uid)
          return result('skipped', 'the pod was replaced since it was checked (uid changed)');
        const excluded = await exclusion(target, pod);
        if (excluded) return result('skipped', excluded);
        const stop = await gate(
          action,
          where,
          { used: counts.evictions, max: limits.maxEvictionsPerRun },
          false,
        );
        if (stop?.outcome === 'planned') {
          const blockedBy = await previewEviction(target);
          if (blockedBy) return result('blocked', blockedBy);
          counts.evictions++;
          return result('planned', `${stop.detail}: ${reason}`);
        }
        if (stop) return result(stop.outcome, stop.detail);
        const evicted = await kube.evict(target.namespace, target.name, { uid: target.uid });
        switch (evicted.outcome) {
          case 'evicted':
            counts.evictions++;
            return result('done', reason);
          case 'blocked-by-pdb':
            return result('blocked', evicted.message);
          case 'gone':
            return result('skipped', 'the pod is already gone');
          case 'uid-changed':
            return result('skipped', 'the pod was replaced since it was checked (uid changed)');
        }
      } catch (error) {
        if (error instanceof KubeError && error.kind === 'not-found')
          return result('skipped', 'the pod is already gone');
        return result('failed', error instanceof Error ? error.message : String(error));
      }
    },

    async restartAgent(node, reason) {
      const action = 'restart-agent';
      const result = (outcome: DoneAction['outcome'], detail?: string) =>
        record({ action, target: node, outcome, ...(detail ? { detail } : {}) });
      try {
        const agent = (await cilium.agents()).find((a) => a.node === node);
        if (!agent) return result('skipped', `no Cilium agent pod on ${node}`);
        const stop = await gate(
          action,
          node,
          { used: counts.agentRestarts, max: limits.maxAgentRestartsPerRun },
          true,
        );
        if (stop?.outcome === 'planned') {
          counts.agentRestarts++;
          return result('planned', `${stop.detail}: ${reason}`);
        }
        if (stop) return result(stop.outcome, stop.detail);
        await kube.deletePod(agent.namespace, agent.name, agent.uid);
        counts.agentRestarts++;
        return result('done', reason);
      } catch (error) {
        return result('failed', error instanceof Error ? error.message : String(error));
      }
    },
  };
}
