import type { Ec2Reader } from '../aws/ec2.ts';
import type { AwsSide } from '../aws/side.ts';

/**
 * The cluster edge as runbooks see it: a Kubernetes facade and a Cilium facade, with typed
 * errors. Implementations talk to EKS, a kubeconfig context or the simulator alike.
 */

/** How to reach a cluster. */
export type ClusterRef =
  | { kind: 'eks'; name: string; region: string; roleArn?: string; ciliumNamespace?: string }
  /** Without `path`: the default kubeconfig, as kubectl finds it ($KUBECONFIG, or ~/.kube/config). */
  | { kind: 'kubeconfig'; path?: string; context?: string; ciliumNamespace?: string; aws?: AwsSide }
  | { kind: 'sim'; kubeconfig: string; ciliumNamespace?: string };

/** What kind of failure a Kubernetes API call met, from its HTTP status or its connection. */
export type KubeErrorKind =
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'throttled'
  | 'unavailable'
  | 'timeout'
  | 'invalid'
  | 'unauthorized';

/** A failed API call, classified. `message` reads `forbidden: list pods` style, for reports. */
export class KubeError extends Error {
  constructor(
    /** What kind of failure; `isKubeError(error, 'not-found')` tests it. */
    readonly kind: KubeErrorKind,
    /** The RBAC verb and resource, e.g. `list` and `pods` or `create` and `pods/eviction`. */
    readonly verb: string,
    /** The resource (and subresource) as RBAC names it, e.g. `pods/exec`. */
    readonly resource: string,
    /** The API server's own message (Status.message), when it gave one. */
    readonly detail: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    /** Seconds the server asked us to wait (Retry-After), for throttled errors. */
    readonly retryAfterSeconds?: number,
    /**
     * True only when the request provably never reached the server: its connection never came up
     * (refused, DNS, TLS handshake, a connect timeout), so nothing of it was sent. A reset or a
     * timeout after the connection was up proves nothing: the server may have acted.
     */
    readonly unsent = false,
  ) {
    super(`${kind}: ${verb} ${resource}${detail ? ` (${detail})` : ''}`);
    this.name = 'KubeError';
  }
}

/** An API resource, as the facade addresses it. */
export interface ResourceRef {
  /** '' for the core group. */
  group: string;
  /** The API version, e.g. `v1` or `v2`. */
  version: string;
  /** As in the URL and in RBAC, e.g. `ciliumendpoints`. */
  plural: string;
  /** Whether objects live in a namespace (pods) or cluster-wide (nodes). */
  namespaced: boolean;
}

/**
 * The resources the responder reads, by name: `ctx.kube.get(RESOURCES.pods, 'shop', 'web-1')`.
 * Its RBAC covers these; a team's runbook that reads others declares them in `permissions`.
 */
export const RESOURCES = {
  pods: { group: '', version: 'v1', plural: 'pods', namespaced: true },
  nodes: { group: '', version: 'v1', plural: 'nodes', namespaced: false },
  configmaps: { group: '', version: 'v1', plural: 'configmaps', namespaced: true },
  events: { group: '', version: 'v1', plural: 'events', namespaced: true },
  namespaces: { group: '', version: 'v1', plural: 'namespaces', namespaced: false },
  daemonsets: { group: 'apps', version: 'v1', plural: 'daemonsets', namespaced: true },
  replicasets: { group: 'apps', version: 'v1', plural: 'replicasets', namespaced: true },
  deployments: { group: 'apps', version: 'v1', plural: 'deployments', namespaced: true },
  networkpolicies: { group: 'networking.k8s.io', version: 'v1', plural: 'networkpolicies', namespaced: true },
  poddisruptionbudgets: { group: 'policy', version: 'v1', plural: 'poddisruptionbudgets', namespaced: true },
  ciliumendpoints: { group: 'cilium.io', version: 'v2', plural: 'ciliumendpoints', namespaced: true },
  ciliumnodes: { group: 'cilium.io', version: 'v2', plural: 'ciliumnodes', namespaced: false },
} as const satisfies Record<string, ResourceRef>;

/** Object metadata as the API returns it (the fields the responder reads). */
export interface Metadata {
  /** Unique in its namespace (or the cluster, for cluster-wide objects). */
  name: string;
  /** Absent for cluster-wide objects. */
  namespace?: string;
  /** Unique for the object's life: a pod recreated under the same name has a new one. */
  uid: string;
  /** The server's version of the object, for optimistic concurrency. */
  resourceVersion?: string;
  /** ISO time the object was created. */
  creationTimestamp?: string;
  /** Key/value labels that selectors match. */
  labels?: Record<string, string>;
  /** Key/value annotations (not selectable). */
  annotations?: Record<string, string>;
  /** What owns it, e.g. a pod's ReplicaSet (`controller: true`). */
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[];
}

/** A Kubernetes object as JSON; callers narrow it with their own projections. */
export interface KubeObject {
  /** e.g. `v1` or `apps/v1`. */
  apiVersion?: string;
  /** e.g. `Pod`. */
  kind?: string;
  /** Name, namespace, uid, labels... */
  metadata: Metadata;
  /** The rest (spec, status, data), unchecked: read it through a projection of your own. */
  [key: string]: unknown;
}

/** What {@link KubeReader.list} lists, and how it keeps each object. */
export interface ListOptions<T> {
  /** Only this namespace. @defaultValue every namespace */
  namespace?: string;
  /** A label selector as kubectl takes it, e.g. `k8s-app=cilium`. @defaultValue every object */
  labelSelector?: string;
  /** A field selector, e.g. `spec.nodeName=ip-10-0-1-23`. @defaultValue every object */
  fieldSelector?: string;
  /** Page size (default 500). */
  pageSize?: number;
  /**
   * Keeps only what the caller needs from each object as pages arrive, so a 150,000-pod list never
   * sits in memory whole; an object projected to `undefined` is not kept at all. `'metadata'` asks
   * the server for metadata only and keeps it.
   */
  project: 'metadata' | ((object: KubeObject) => T | undefined);
  /**
   * Asks the server for metadata only (PartialObjectMetadataList), as `'metadata'` does, for a
   * projection that reads nothing else: a page is then a fraction of the bytes to decode.
   */
  metadataOnly?: boolean;
}

export interface EvictOptions {
  /** Precondition: evict only if the pod still has this uid. */
  uid: string;
  dryRun?: boolean;
}

/** What an eviction did: PodDisruptionBudgets answer 429, which is a result, not a failure. */
export type EvictionResult =
  | { outcome: 'evicted' }
  | { outcome: 'blocked-by-pdb'; message: string }
  | { outcome: 'gone' }
  | { outcome: 'uid-changed' };

/** How long a command in a pod may take, and what stops it. */
export interface ExecOptions {
  /** Time to get the WebSocket upgraded (default 5 s). */
  handshakeTimeoutMs?: number;
  /** Time for the command to finish (default 20 s). */
  timeoutMs?: number;
  /** Stops the command (its connection closed, so the agent ends it) when the run is stopped. */
  signal?: AbortSignal;
  /**
   * Takes the command's standard output as it arrives, frame by frame, instead of the result's
   * `stdout` (then empty): for output too large to hold whole, such as an agent's status that lists
   * every node. If it throws, the command is closed and the exec rejects with that error.
   */
  onStdout?: (chunk: Buffer) => void;
}

/** What a command in a pod printed, and how it exited. */
export interface ExecResult {
  /** Its standard output, whole (empty when `onStdout` took it). */
  stdout: Buffer;
  /** Its standard error, whole. */
  stderr: Buffer;
  /** The exit code (from the status frame's ExitCode cause; 0 on Success). */
  exitCode: number;
  /** The status message when the command did not exit 0 (e.g. executable file not found). */
  message?: string;
}

/** What runbook steps may do with a cluster: look, and run commands in Cilium agents. */
export interface KubeReader {
  /** A short name for messages and fingerprints (config name, or kubeconfig context). */
  readonly clusterName: string;
  /** One object; a missing one throws a KubeError of kind `not-found`. */
  get(resource: ResourceRef, namespace: string | undefined, name: string): Promise<KubeObject>;
  /** A paged list, projected per item. */
  list<T = KubeObject>(resource: ResourceRef, options: ListOptions<T>): Promise<T[]>;
  /**
   * The same list a page at a time, each page's objects kept as `list` keeps them, in the server's
   * order (by `<namespace>/<name>` as a string): for reading two lists side by side while holding a
   * page of each. A continue token the server has expired ends it with a KubeError of status 410
   * (`list` starts over instead).
   */
  pages<T = KubeObject>(resource: ResourceRef, options: ListOptions<T>): AsyncIterable<T[]>;
  /** Runs a command in a pod's container (`pods/exec`); a non-zero exit is a result, not an error. */
  exec(
    namespace: string,
    pod: string,
    container: string,
    command: string[],
    options?: ExecOptions,
  ): Promise<ExecResult>;
}

/** The whole facade, writes included: only the actuator holds it. */
export interface KubeFacade extends KubeReader {
  evict(namespace: string, name: string, options: EvictOptions): Promise<EvictionResult>;
  /** Deletes a pod with a uid precondition (agent restarts go through here; its DaemonSet brings it back). */
  deletePod(namespace: string, name: string, uid: string): Promise<void>;
}

/** A Cilium agent pod, found by `k8s-app=cilium` in the Cilium namespace. */
export interface AgentPod {
  /** The pod's name, e.g. `cilium-x7k2p`. */
  name: string;
  /** The Cilium namespace. */
  namespace: string;
  /** The pod's uid: a restart checks it so it never deletes the agent's replacement. */
  uid: string;
  /** The node it runs on. */
  node: string;
  /** Whether the pod is Ready. */
  ready: boolean;
  /** `containerd://<64 hex>` of the cilium-agent container. */
  containerId?: string;
}

/** How {@link CiliumFacade.forEachAgent} goes through the agents. */
export interface FanOutOptions {
  /** Agents at once (default 16). */
  concurrency?: number;
  /** After each agent: how many are done, of how many, and how many of those failed. */
  onProgress?: (done: number, total: number, failed: number) => void;
  /** Stops starting agents when it aborts (pass `ctx.signal`). */
  signal?: AbortSignal;
  /**
   * Asked before each agent starts: once true, the agents not started are left out of the
   * results, for the run's next invocation (pass `ctx.pausing`). Those running finish.
   */
  pause?: () => boolean;
  /** Agents left out altogether: those an earlier invocation of the run already did. */
  skip?: (agent: AgentPod) => boolean;
  /**
   * Which results the answer keeps (default `all`). `failed`: only the failures, for work that
   * tallies each agent itself as it ends, so 100,000 agents that pass hold nothing each.
   */
  keep?: 'all' | 'failed';
}

/**
 * One agent's result of a fan-out: its value, or the error it met (the others go on), detached:
 * its message, name, stack text and a KubeError's fields, nothing else it pointed to.
 */
export type AgentResult<T> =
  | { agent: AgentPod; ok: true; value: T }
  | { agent: AgentPod; ok: false; error: Error };

/** The Cilium agents of a cluster and their config, as a step reads them. */
export interface CiliumFacade {
  /** Where the agents run, e.g. `kube-system`. */
  readonly namespace: string;
  /** The agent pods, one per node (listed once per run, each call's objects its own). */
  agents(): Promise<AgentPod[]>;
  /**
   * The first agent, in node order, that `test` accepts: made one at a time, where `agents()`
   * makes every agent (100,000 objects at a 100,000-node cluster) to pick one.
   */
  findAgent(test: (agent: AgentPod) => boolean): Promise<AgentPod | undefined>;
  /** The `cilium-config` ConfigMap's data, read once per run. */
  config(): Promise<Record<string, string>>;
  /** Runs a command in an agent's cilium-agent container; non-zero exits are results, not errors. */
  exec(agent: AgentPod, command: string[], options?: ExecOptions): Promise<ExecResult>;
  /**
   * Runs the first of several spellings of a command that the image has (e.g. `cilium-dbg ...`
   * then `cilium ...`); an "executable file not found" moves on to the next.
   */
  execFirst(
    agent: AgentPod,
    alternatives: string[][],
    options?: ExecOptions,
  ): Promise<ExecResult & { command: string[] }>;
  /** `cilium-dbg <args>`, falling back to `cilium <args>` on images that predate the rename. */
  dbg(agent: AgentPod, args: string[], options?: ExecOptions): Promise<ExecResult & { command: string[] }>;
  /** `iptables-save -t <table>` through the image's wrapper, falling back to the nft and legacy tools. */
  iptablesSave(
    agent: AgentPod,
    table: string,
    options?: ExecOptions,
  ): Promise<ExecResult & { command: string[] }>;
  /**
   * Runs `work` on every agent with bounded concurrency; one agent's failure does not stop the rest.
   * `index` is the agent's place in `agents()`, as its result's in the answer.
   */
  forEachAgent<T>(
    work: (agent: AgentPod, index: number) => Promise<T>,
    options?: FanOutOptions,
  ): Promise<AgentResult<T>[]>;
}

/** Both facades for one cluster, as a runbook run gets them. */
export interface ClusterAccess {
  name: string;
  kube: KubeFacade;
  cilium: CiliumFacade;
  /** Set for clusters with an AWS side: the EC2 reads, with the cluster's credentials and region. */
  aws?: AwsReads;
}

/** A cluster's AWS side as a step sees it: its region, and EC2 reads with its credentials. */
export interface AwsReads {
  /** e.g. `eu-west-1`. */
  region: string;
  /** DescribeInstances and DescribeSecurityGroups, with the cluster's credentials. */
  ec2: Ec2Reader;
}
