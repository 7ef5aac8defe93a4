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
import { KeySet } from './key-set.ts';
import type { UnmanagedPodsParams } from './params.ts';
import { byNamespaceKey, RUNNING_ON_POD_NETWORK, readSideBySide } from './side-by-side.ts';

/** What a scan reads: the cluster, the params and limits, the clock, and where it reports progress. */
type ScanContext = Pick<
  StepContext<UnmanagedPodsParams, unknown>,
  'kube' | 'cilium' | 'params' | 'limits' | 'now' | 'progress'
>;

export interface UnmanagedPod extends PodFacts {
  ageSeconds: number;
  /** Set when the responder will leave it alone. */
  hold?: Hold;
}

/** What one look at the cluster found, as plain data (a run's state is kept as JSON). */
export interface Scan {
  graceSeconds: number;
  /** Running pods on the pod network that were looked at. */
  podsChecked: number;
  endpoints: number;
  /** No CiliumEndpoint and older than the grace period, by namespace/name. */
  unmanaged: UnmanagedPod[];
  /** No CiliumEndpoint yet, but within the grace period: the agent may still be writing it. */
  young: UnmanagedPod[];
}

/**
 * A scan that stopped taking namespaces (its invocation was ending): the namespaces it has not
 * read, and what it found in the ones it has. What the run's checkpoint keeps of it.
 */
export interface ScanSoFar {
  /** Every namespace the scan reads, read or not. */
  namespaces: number;
  /** Those not read yet, in order. */
  left: string[];
  podsChecked: number;
  endpoints: number;
  /** Each judged when its namespace was read; holds are decided once the scan is whole. */
  unmanaged: UnmanagedPod[];
  young: UnmanagedPod[];
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

/** The namespaces a scan reads: the params' (each once), or every namespace in the cluster, in key order. */
async function namespacesToRead(ctx: ScanContext): Promise<string[]> {
  if (ctx.params.namespaces) return [...new Set(ctx.params.namespaces)];
  const names = await ctx.kube.list(RESOURCES.namespaces, {
    metadataOnly: true,
    project: ({ metadata }) => metadata.name,
  });
  return names.sort(byNamespaceKey);
}

/**
 * One namespace: its CiliumEndpoints (names only, kept as 64-bit hashes in a KeySet) first, then
 * its pods, keeping full facts only for pods without an endpoint. Endpoints first, so a pod
 * created in between looks young rather than unmanaged; one namespace at a time, so what is held
 * is the largest namespace's endpoints, not the cluster's.
 */
async function readNamespace(ctx: ScanContext, namespace: string, graceSeconds: number, into: ScanSoFar) {
  const endpoints = new KeySet();
  await ctx.kube.list(RESOURCES.ciliumendpoints, {
    namespace,
    metadataOnly: true,
    project: ({ metadata }) => {
      endpoints.add(metadata.name);
    },
  });
  let pods = 0;
  const withoutEndpoint = (object: KubeObject): PodFacts | undefined => {
    pods++;
    return endpoints.has(object.metadata.name) ? undefined : podFacts(object);
  };
  const candidates = await ctx.kube.list(RESOURCES.pods, {
    namespace,
    fieldSelector: RUNNING_ON_POD_NETWORK,
    project: withoutEndpoint,
  });
  into.podsChecked += pods;
  into.endpoints += endpoints.size;
  judge(ctx, into, candidates, graceSeconds);
}

/** A whole scan, or where one that paused stands. */
export type ScanOrSoFar = { scan: Scan; sofar?: undefined } | { scan?: undefined; sofar: ScanSoFar };

/** A scan not started: every namespace left. */
async function newScan(ctx: ScanContext): Promise<ScanSoFar> {
  const all = await namespacesToRead(ctx);
  return { namespaces: all.length, left: all, podsChecked: 0, endpoints: 0, unmanaged: [], young: [] };
}

/** Adds pods judged without an endpoint to the scan, split by age. */
function judge(ctx: ScanContext, sofar: ScanSoFar, pods: readonly PodFacts[], graceSeconds: number) {
  const { unmanaged, young } = splitByAge(pods, ctx.now(), graceSeconds);
  sofar.unmanaged.push(...unmanaged);
  sofar.young.push(...young);
}

/**
 * A scan of every namespace, started: the cluster's two lists read side by side, the requests of
 * reading each once (per namespace, a cluster of 4,000 namespaces took a quarter more). Where
 * that stopped (`pausing`, or an expired continue token) `sofar.left` says.
 */
async function readEveryNamespace(
  ctx: ScanContext,
  sofar: ScanSoFar,
  graceSeconds: number,
  pausing: () => boolean,
): Promise<void> {
  const read = await readSideBySide(ctx.kube, sofar.left, {
    pausing,
    onNamespaceRead: (done) => ctx.progress(done, sofar.namespaces, 'namespaces scanned'),
  });
  sofar.podsChecked += read.podsChecked;
  sofar.endpoints += read.endpoints;
  sofar.left = read.left;
  judge(ctx, sofar, read.withoutEndpoint, graceSeconds);
}

/**
 * Reads the namespaces `sofar` has left into it, one after another, until every one is read or
 * `pausing` says to start no more. One at a time: on the bench's simulator several at once were
 * slower, not faster (docs/scale.md).
 */
async function readNamespaces(
  ctx: ScanContext,
  sofar: ScanSoFar,
  graceSeconds: number,
  pausing: () => boolean,
): Promise<void> {
  const todo = sofar.left;
  let next = 0;
  while (next < todo.length && !pausing()) {
    await readNamespace(ctx, todo[next] as string, graceSeconds, sofar);
    next++;
    ctx.progress(sofar.namespaces - todo.length + next, sofar.namespaces, 'namespaces scanned');
  }
  sofar.left = todo.slice(next);
}

/**
 * Reads what `sofar` has left: a new scan of every namespace side by side, and what that leaves
 * (or a scan of named namespaces, or one going on from an earlier invocation) one namespace at a time.
 */
async function read(ctx: ScanContext, sofar: ScanSoFar, isNew: boolean, pausing: () => boolean) {
  const graceSeconds = graceOf(ctx);
  if (isNew && !ctx.params.namespaces) await readEveryNamespace(ctx, sofar, graceSeconds, pausing);
  await readNamespaces(ctx, sofar, graceSeconds, pausing);
}

/** The scan once every namespace is read: sorted, and each unmanaged pod's hold decided. */
async function finished(ctx: ScanContext, sofar: ScanSoFar, graceSeconds: number): Promise<Scan> {
  const byKey = (a: PodFacts, b: PodFacts) => podKey(a).localeCompare(podKey(b));
  const unmanaged = sofar.unmanaged.sort(byKey);
  if (unmanaged.length > 0) {
    const agents = await agentHealth(ctx);
    const excluded = exclusions(ctx.limits.excludeSelectors);
    for (const pod of unmanaged) {
      const hold = holdFor(pod, agents, excluded);
      if (hold) pod.hold = hold;
    }
  }
  const { podsChecked, endpoints } = sofar;
  return { graceSeconds, podsChecked, endpoints, unmanaged, young: sofar.young.sort(byKey) };
}

const graceOf = (ctx: ScanContext) => ctx.params.gracePeriodSeconds ?? ctx.limits.gracePeriodSeconds;

/**
 * The scan, from where `from` left it (from the start when undefined), until it is whole or
 * `pausing` says to start no more namespaces: then what it found so far comes back, for the
 * run's next invocation to go on from.
 */
export async function scanUntilPaused(
  ctx: ScanContext,
  options: { from?: ScanSoFar; pausing: () => boolean },
): Promise<ScanOrSoFar> {
  const { from } = options;
  const sofar = from
    ? { ...from, unmanaged: [...from.unmanaged], young: [...from.young] }
    : await newScan(ctx);
  await read(ctx, sofar, !from, options.pausing);
  if (sofar.left.length > 0) return { sofar };
  return { scan: await finished(ctx, sofar, graceOf(ctx)) };
}

/** A whole scan, however long it takes (the run's deadline still ends it). */
export async function scanCluster(ctx: ScanContext): Promise<Scan> {
  const sofar = await newScan(ctx);
  await read(ctx, sofar, true, () => false);
  return finished(ctx, sofar, graceOf(ctx));
}
