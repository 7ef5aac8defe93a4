import type { z } from 'zod';
import type { PermissionRule } from '../cluster/permissions.ts';
import type { CiliumFacade, ClusterAccess, KubeReader } from '../cluster/types.ts';

/**
 * The runbook engine's vocabulary. A runbook is a list of steps; a step looks at the cluster (and
 * may act through the actuator) and returns an Outcome; the engine turns outcomes into a Report.
 */

/** `dry-run` plans only; `auto` acts within limits; `approve` stops before the first write step. */
export type Mode = 'dry-run' | 'auto' | 'approve';

export type Severity = 'info' | 'warning' | 'critical';

export type StepStatus = 'pass' | 'warn' | 'fail' | 'skip' | 'error';

export type Verdict = 'healthy' | 'remediated' | 'needs-approval' | 'degraded' | 'failed';

/**
 * One problem, at one target. `code` and `target` are stable (the fingerprint is built from them,
 * never from free text), e.g. `UNMANAGED_POD` at `shop/web-1`.
 */
export interface Finding {
  code: string;
  target: string;
  severity: Severity;
  /** One line a person can act on. */
  message: string;
  /** How to fix it by hand, when the responder will not. */
  fix?: string;
  /** Set by the engine: sha256 of (cluster, runbook, code, target), hex, first 16 chars. */
  fingerprint?: string;
}

/** What a step saw, for the report (command output excerpts, counts, config values). */
export interface Evidence {
  /** Where it came from, e.g. `ip-10-0-1-23: stat -c %i /run/cilium/cgroupv2`. */
  source: string;
  text: string;
}

/** A write the step wants (or wanted) to make. */
export interface PlannedAction {
  /** e.g. `evict-pod`, `restart-agent`. */
  action: string;
  /** e.g. `shop/web-1` or a node name. */
  target: string;
  reason: string;
  /** uid precondition the write will carry. */
  uid?: string;
}

/**
 * `failed`: the write provably did not happen (the server refused it, or never got it).
 * `unconfirmed`: it was sent and its answer was lost (a 5xx, a reset, a timeout): it may have
 * happened, so it counts against the brake and the cap, and a verifying step checks the cluster.
 */
export type ActionOutcome = 'done' | 'planned' | 'blocked' | 'skipped' | 'failed' | 'unconfirmed';

/** What happened to a planned action. `detail` says why when not done. */
export interface DoneAction {
  action: string;
  target: string;
  outcome: ActionOutcome;
  detail?: string;
}

/** A problem an earlier step found that this step saw gone after the run's writes. */
export interface Cleared {
  code: string;
  target: string;
  /** What shows it gone, e.g. `Ready again: its probes pass`. */
  how: string;
}

export interface Outcome {
  status: StepStatus;
  /** One line, e.g. `3 unmanaged pods on 2 nodes`. */
  summary: string;
  findings: Finding[];
  evidence: Evidence[];
  plan: PlannedAction[];
  done: DoneAction[];
  /** Symptoms earlier steps found that are gone now; only a step after a write can say so. */
  cleared?: Cleared[];
}

/**
 * Where a run's writes are journaled as they happen (the worker's audit record), so a run cut off
 * mid-way (a kill, a crash) still says what it did. `sending` is awaited before the write goes
 * out: when it throws, the write is not sent. `landed` says how it came out.
 */
export interface WriteJournal {
  sending(action: string, target: string): Promise<void>;
  landed(done: DoneAction): Promise<void>;
}

export interface Limits {
  /** Most pod evictions in one run. */
  maxEvictionsPerRun: number;
  /** Most agent restarts in one run. */
  maxAgentRestartsPerRun: number;
  /** Extra label selectors whose pods are never touched (aws-node by `k8s-app=aws-node` always is). */
  excludeSelectors: string[];
  /** Pods younger than this are left alone (the operator's own watcher uses 30 s). */
  gracePeriodSeconds: number;
  /** Agents at once during fan-out. */
  concurrency: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxEvictionsPerRun: 10,
  maxAgentRestartsPerRun: 1,
  excludeSelectors: [],
  gracePeriodSeconds: 60,
  concurrency: 16,
};

/** A pod the actuator may evict, as the step saw it. */
export interface PodTarget {
  namespace: string;
  name: string;
  uid: string;
  node: string;
}

/**
 * The only way a runbook writes to a cluster. It enforces the mode, exclusions (aws-node,
 * hostNetwork, mirror/static pods, configured selectors), caps, the brake, PodDisruptionBudgets
 * (through the Eviction API) and uid preconditions, and records every decision.
 */
export interface Actuator {
  evictPod(target: PodTarget, reason: string): Promise<DoneAction>;
  /** Deletes a Cilium agent pod (its DaemonSet replaces it); only in `auto` with an approved plan. */
  restartAgent(node: string, reason: string): Promise<DoneAction>;
}

/** Cluster writes allowed per window across every source; the actuator asks before each write. */
export interface Brake {
  /** Takes one write from the budget; false when the brake is engaged. */
  tryWrite(cluster: string): Promise<boolean>;
  /** Gives back one write this run took that provably did not happen (refused, or never sent). */
  refund?(cluster: string): Promise<void>;
}

export interface Logger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface StepContext<P = Record<string, unknown>, S = Record<string, never>> {
  cluster: string;
  /** Reads only: every write goes through `actuator`, which alone holds the writing facade. */
  kube: KubeReader;
  cilium: CiliumFacade;
  /** Set when the cluster has an AWS side: its region, and the EC2 reads with its credentials. */
  aws?: ClusterAccess['aws'];
  mode: Mode;
  limits: Limits;
  params: P;
  actuator: Actuator;
  /** Aborts when the run's deadline passes. */
  signal: AbortSignal;
  now(): Date;
  log: Logger;
  /** What the steps of one run hand each other (what a check found, for the act step), typed by the runbook. */
  state: S;
  /**
   * Progress during long fan-outs and waits, e.g. (37, 120, 'agents checked'). A bounded wait
   * passes `endsAt` (epoch ms) when it gives up, so a person watching sees a countdown.
   */
  progress(done: number, total: number, label: string, endsAt?: number): void;
}

export interface Step<P = Record<string, unknown>, S = Record<string, never>> {
  id: string;
  title: string;
  /** Write steps run only in `auto`; in `approve` the run stops before the first one. */
  writes: boolean;
  /**
   * When the step applies, as a condition on the cluster's facts (like cilium-cli's conditional
   * scenarios): the reason it does not, or undefined when it does. The engine reports a step that
   * does not apply as skipped with that reason, without running it.
   */
  when?(ctx: StepContext<P, S>): Promise<string | undefined>;
  run(ctx: StepContext<P, S>): Promise<Outcome>;
}

export interface Runbook<P = Record<string, unknown>, S = Record<string, never>> {
  id: string;
  title: string;
  summary: string;
  /** Path of the runbook's doc, relative to the project root (`runbooks/<id>/README.md`). */
  doc: string;
  params: z.ZodType<P>;
  /** Alert names this runbook answers (for routing). */
  answers: string[];
  /** The state a run starts with (fresh for every run). */
  newState(): S;
  steps: Step<P, S>[];
  /** Kubernetes reads beyond the responder's own rules (a team's runbook declares them); RBAC includes them. */
  permissions?: readonly PermissionRule[];
}

/** What a runbook is, without its code: what listing and checking names need. */
export interface RunbookInfo {
  id: string;
  title: string;
  /** Whether any step writes to the cluster (so applying it needs an approver in Slack). */
  writes: boolean;
  /** The runbook's params schema, the same object the runbook runs with: admission checks params by it. */
  params: z.ZodObject;
}

/** Any runbook, its types forgotten: what a registry holds; the engine validates params on each run. */
export type AnyRunbook = Runbook<unknown, unknown>;

export interface StepReport extends Outcome {
  id: string;
  title: string;
  durationMs: number;
}

/** A param a run was asked with, and who set it (`config`, `route`, or the person). */
export interface ParamSetting {
  key: string;
  value: unknown;
  by: string;
}

export interface Report {
  runId: string;
  runbook: string;
  cluster: string;
  mode: Mode;
  verdict: Verdict;
  steps: StepReport[];
  timings: { startedAt: string; finishedAt: string; durationMs: number };
  /** The params it ran with, and who set each: shown beside a plan waiting for approval. */
  params?: ParamSetting[];
}
