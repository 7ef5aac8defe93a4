import {
  AGENT_NOT_READY_TAINT,
  type AgentHealth,
  ageSeconds,
  exclusions,
  type Hold,
  holdFor,
  type KubeObject,
  type PodFacts,
  podFacts,
  podKey,
  RESOURCES,
  type StepContext,
} from '../../sdk/index.ts';
import { type KeyLookup, KeySet } from './key-set.ts';
import type { UnmanagedPodsParams } from './params.ts';

/** What a scan reads: the cluster, the params and limits, the clock. */
type ScanContext = Pick<
  StepContext<UnmanagedPodsParams, unknown>,
  'kube' | 'cilium' | 'params' | 'limits' | 'now'
>;

/** Server-side filters: only Running pods on the pod network can be unmanaged. */
const RUNNING_ON_POD_NETWORK = 'status.phase=Running,spec.hostNetwork=false';

export interface UnmanagedPod extends PodFacts {
  ageSeconds: number;
  /** Set when the responder will leave it alone. */
  hold?: Hold;
}

/** What one look at the cluster found. */
export interface Scan {
  graceSeconds: number;
  /** Running pods on the pod network that were looked at. */
  podsChecked: number;
  endpoints: number;
  /** No CiliumEndpoint and older than the grace period, by namespace/name. */
  unmanaged: UnmanagedPod[];
  /** No CiliumEndpoint yet, but within the grace period: the agent may still be writing it. */
  young: UnmanagedPod[];
  /** Every pod seen, so a replacement can be told from a pod that was already there. */
  seenUids: KeyLookup;
}

/**
 * The operator's own test (its unmanaged-pod watcher): Running, not hostNetwork, not on its way out, and no
 * CiliumEndpoint of the same namespace/name. Split by age against the grace period.
 */
export function splitByAge(
  pods: readonly PodFacts[],
  now: Date,
  graceSeconds: number,
): { unmanaged: UnmanagedPod[]; young: UnmanagedPod[] } {
  const unmanaged: UnmanagedPod[] = [];
  const young: UnmanagedPod[] = [];
  for (const pod of pods) {
    const age = ageSeconds(pod, now);
    if (pod.hostNetwork || pod.terminating || age === undefined) continue;
    (age >= graceSeconds ? unmanaged : young).push({ ...pod, ageSeconds: age });
  }
  const byKey = (a: PodFacts, b: PodFacts) => podKey(a).localeCompare(podKey(b));
  return { unmanaged: unmanaged.sort(byKey), young: young.sort(byKey) };
}

async function agentHealth(ctx: ScanContext): Promise<AgentHealth> {
  const [agents, tainted] = await Promise.all([
    ctx.cilium.agents(),
    ctx.kube.list(RESOURCES.nodes, {
      project: (node) => {
        const taints = (node.spec as { taints?: { key: string }[] } | undefined)?.taints ?? [];
        return taints.some((taint) => taint.key === AGENT_NOT_READY_TAINT) ? node.metadata.name : undefined;
      },
    }),
  ]);
  return {
    agentReady: new Map(agents.map((agent) => [agent.node, agent.ready])),
    tainted: new Set(tainted),
  };
}

/**
 * Lists CiliumEndpoints (names only) first, then pods, keeping full facts only for pods without
 * an endpoint: the endpoints' names and the pods' uids are kept as 64-bit hashes (KeySet), so a
 * 3-million-pod cluster costs two typed arrays, not millions of strings. Endpoints first, so a
 * pod created in between looks young rather than unmanaged.
 */
export async function scanCluster(ctx: ScanContext): Promise<Scan> {
  const namespaces = ctx.params.namespaces ?? [undefined];
  const graceSeconds = ctx.params.gracePeriodSeconds ?? ctx.limits.gracePeriodSeconds;
  // Keys only, added as each page arrives: the endpoints' metadata is never kept.
  const endpoints = new KeySet();
  await Promise.all(
    namespaces.map((namespace) =>
      ctx.kube.list(RESOURCES.ciliumendpoints, {
        ...(namespace ? { namespace } : {}),
        metadataOnly: true,
        project: ({ metadata }) => {
          endpoints.add(podKey({ namespace: metadata.namespace ?? '', name: metadata.name }));
        },
      }),
    ),
  );
  const seenUids = new KeySet();
  const withoutEndpoint = (object: KubeObject): PodFacts | undefined => {
    const { namespace = '', name, uid } = object.metadata;
    seenUids.add(uid);
    return endpoints.has(podKey({ namespace, name })) ? undefined : podFacts(object);
  };
  const podLists = await Promise.all(
    namespaces.map((namespace) =>
      ctx.kube.list(RESOURCES.pods, {
        ...(namespace ? { namespace } : {}),
        fieldSelector: RUNNING_ON_POD_NETWORK,
        project: withoutEndpoint,
      }),
    ),
  );
  const candidates = podLists.flat();
  const { unmanaged, young } = splitByAge(candidates, ctx.now(), graceSeconds);
  if (unmanaged.length > 0) {
    const agents = await agentHealth(ctx);
    const excluded = exclusions(ctx.limits.excludeSelectors);
    for (const pod of unmanaged) {
      const hold = holdFor(pod, agents, excluded);
      if (hold) pod.hold = hold;
    }
  }
  return { graceSeconds, podsChecked: seenUids.size, endpoints: endpoints.size, unmanaged, young, seenUids };
}
