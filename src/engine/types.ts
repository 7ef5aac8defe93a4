import type { z } from 'zod';
import type { PermissionRule } from '../cluster/permissions.ts';
import type { AwsReads, CiliumFacade, KubeReader } from '../cluster/types.ts';

/**
 * The runbook engine's vocabulary. A runbook is a list of steps; a step looks at the cluster (and
 * may act through the actuator) and returns an Outcome; the engine turns outcomes into a Report.
 */

/** `dry-run` plans only; `auto` acts within limits; `approve` stops before the first write step. */
export type Mode = 'dry-run' | 'auto' | 'approve';

/** How much a finding matters: `critical` pages, `warning` is worth a look, `info` is context. */
export type Severity = 'info' | 'warning' | 'critical';

/** How a step came out; `skip` when its `when` said it does not apply, `error` when it could not finish. */
export type StepStatus = 'pass' | 'warn' | 'fail' | 'skip' | 'error';

/**
 * A run in one word: nothing wrong (`healthy`), fixed by its writes (`remediated`), a plan waits for a
 * person (`needs-approval`), problems left (`degraded`), or a step could not finish (`failed`).
 */
export type Verdict = 'healthy' | 'remediated' | 'needs-approval' | 'degraded' | 'failed';

/**
 * One problem, at one target. `code` and `target` are stable (the fingerprint is built from them,
 * never from free text), e.g. `UNMANAGED_POD` at `shop/web-1`.
 */
export interface Finding {
  /** Upper snake case, stable across runs, e.g. `UNMANAGED_POD`. */
  code: string;
  /** What the problem is at, e.g. `shop/web-1` or a node name. */
  target: string;
  /** How much it matters. */
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
  /** What it showed, as printed or counted. */
  text: string;
}

/** A write the step wants (or wanted) to make. */
export interface PlannedAction {
  /** e.g. `evict-pod`, `restart-agent`. */
  action: string;
  /** e.g. `shop/web-1` or a node name. */
  target: string;
  /** Why, in a report's words, e.g. `no CiliumEndpoint for 5m`. */
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
  /** As planned, e.g. `evict-pod`. */
  action: string;
  /** As planned, e.g. `shop/web-1`. */
  target: string;
  /** How it came out. */
  outcome: ActionOutcome;
  /** Why it was not done, e.g. `blocked: a PodDisruptionBudget allows no disruption`. */
  detail?: string;
}

/** A problem an earlier step found that this step saw gone after the run's writes. */
export interface Cleared {
  /** The code of the finding that is gone. */
  code: string;
  /** Its target. */
  target: string;
  /** What shows it gone, e.g. `Ready again: its probes pass`. */
  how: string;
}

/** What a step returns; build it with `outcome(status, summary, { findings, evidence, ... })`. */
export interface Outcome {
  /** How the step came out; the run's verdict is built from the steps' statuses. */
  status: StepStatus;
  /** One line, e.g. `3 unmanaged pods on 2 nodes`. */
  summary: string;
  /** The problems it found. */
  findings: Finding[];
  /** What it saw, for a person checking its reasoning. */
  evidence: Evidence[];
  /** The writes it wants: in `dry-run` and `approve` they stay a plan. */
  plan: PlannedAction[];
  /** The writes it made through the actuator, and how each came out. */
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

/** What a run may do, from the config's `limits` (the same for every runbook). */
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
  /** The pod's namespace. */
  namespace: string;
  /** The pod's name. */
  name: string;
  /** The eviction carries it as a precondition: a new pod of the same name is never evicted. */
  uid: string;
  /** Where it runs: the actuator leaves pods on a node whose agent is not ready alone. */
  node: string;
}

/**
 * The only way a runbook writes to a cluster. It enforces the mode, exclusions (aws-node,
 * hostNetwork, mirror/static pods, configured selectors), caps, the brake, PodDisruptionBudgets
 * (through the Eviction API) and uid preconditions, and records every decision.
 */
export interface Actuator {
  /** Evicts a pod through the Eviction API (PodDisruptionBudgets hold), within the run's cap. */
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

/** Structured logs of a run (CloudWatch in AWS, stderr for the CLI); `data` is logged as fields. */
export interface Logger {
  /** What a person following the run wants to see. */
  info(message: string, data?: Record<string, unknown>): void;
  /** Something odd that did not stop the step. */
  warn(message: string, data?: Record<string, unknown>): void;
  /** Something that went wrong, beside the step's own `error` outcome. */
  error(message: string, data?: Record<string, unknown>): void;
}

/** What a step's `when` and `run` see: the cluster through read-only facades, and the actuator for every write. */
export interface StepContext<P = Record<string, unknown>, S = Record<string, never>> {
  /** The cluster's name, as the config names it. */
  cluster: string;
  /** Reads only: every write goes through `actuator`, which alone holds the writing facade. */
  kube: KubeReader;
  /** The Cilium agents (list, exec, iptables) and cilium-config. */
  cilium: CiliumFacade;
  /** Set when the cluster has an AWS side: its region, and the EC2 reads with its credentials. */
  aws?: AwsReads;
  /** How the run was asked to act; the actuator enforces it, so a step rarely needs to look. */
  mode: Mode;
  /** The run's limits, e.g. `gracePeriodSeconds` for how old a pod must be. */
  limits: Limits;
  /** The runbook's params, parsed by its schema. */
  params: P;
  /** The only way to write. */
  actuator: Actuator;
  /** Aborts when the run's deadline passes. */
  signal: AbortSignal;
  /** The run's clock (a test may set it). */
  now(): Date;
  /** The run's log, with its run id and step. */
  log: Logger;
  /** What the steps of one run hand each other (what a check found, for the act step), typed by the runbook. */
  state: S;
  /**
   * Progress during long fan-outs and waits, e.g. (37, 120, 'agents checked'). A bounded wait
   * passes `endsAt` (epoch ms) when it gives up, so a person watching sees a countdown.
   */
  progress(done: number, total: number, label: string, endsAt?: number): void;
  /**
   * True once this invocation must stop taking new work: the worker's invocation (or the run's
   * time) is ending. A step that can go on in the next invocation stops starting work, and
   * returns `ctx.pause(...)`. A step that cannot just runs on.
   */
  pausing(): boolean;
  /**
   * Ends this invocation of the step: the run goes on in the next invocation, which runs the step
   * again with `saved` as `ctx.saved` (the steps before it are not run again). `saved` is kept in
   * the state table as JSON; `sofar` is what the step would report with what it did so far, the
   * report if the run cannot go on (its time ran out). Writes made so far are carried by the engine.
   *
   * @example
   * ```ts
   * const left = agents.filter((agent) => !done.has(agent.node));
   * if (left.length > 0) return ctx.pause({ done: [...done] }, summarize(done, left));
   * ```
   */
  pause(saved: unknown, sofar: Outcome): Outcome;
  /** What this step saved with `ctx.pause` in the run's earlier invocation; undefined in its first. */
  saved: unknown;
}

/** One check or action of a runbook; write it with `defineStep`. */
export interface Step<P = Record<string, unknown>, S = Record<string, never>> {
  /** Stable, unique in its runbook, e.g. `find-unmanaged`. */
  id: string;
  /** One line for the report. */
  title: string;
  /** Write steps run only in `auto`; in `approve` the run stops before the first one. */
  writes: boolean;
  /**
   * When the step applies, as a condition on the cluster's facts (like cilium-cli's conditional
   * scenarios): the reason it does not, or undefined when it does. The engine reports a step that
   * does not apply as skipped with that reason, without running it.
   */
  when?(ctx: StepContext<P, S>): Promise<string | undefined>;
  /** Looks, maybe acts through `ctx.actuator`, and says what it found. */
  run(ctx: StepContext<P, S>): Promise<Outcome>;
}

/** A runbook as the engine runs it; write it with `defineRunbook`, which fills in the defaults. */
export interface Runbook<P = Record<string, unknown>, S = Record<string, never>> {
  /** Lowercase letters, digits and dashes; unique among all runbooks. */
  id: string;
  /** A few words for lists and Slack. */
  title: string;
  /** One sentence: what it checks and what it may do. */
  summary: string;
  /** Path of the runbook's doc, relative to the project root (`runbooks/<id>/README.md`). */
  doc: string;
  /** Validates the params before anything runs; steps see its output as `ctx.params`. */
  params: z.ZodType<P>;
  /** Alert names this runbook answers (for routing). */
  answers: string[];
  /** The state a run starts with (fresh for every run). */
  newState(): S;
  /** Run in order. */
  steps: Step<P, S>[];
  /** Kubernetes reads beyond the responder's own rules (a team's runbook declares them); RBAC includes them. */
  permissions?: readonly PermissionRule[];
}

/** What a runbook is, without its code: what listing and checking names need. */
export interface RunbookInfo {
  /** The runbook's id. */
  id: string;
  /** The runbook's title. */
  title: string;
  /** Whether any step writes to the cluster (so applying it needs an approver in Slack). */
  writes: boolean;
  /** The runbook's params schema, the same object the runbook runs with: admission checks params by it. */
  params: z.ZodObject;
}

/** Any runbook, its types forgotten: what a registry holds; the engine validates params on each run. */
export type AnyRunbook = Runbook<unknown, unknown>;

/** One step's outcome in a report. */
export interface StepReport extends Outcome {
  /** The step's id. */
  id: string;
  /** The step's title. */
  title: string;
  /** How long it ran. */
  durationMs: number;
}

/** A param a run was asked with, and who set it (`config`, `route`, or the person). */
export interface ParamSetting {
  /** The param's key, e.g. `gracePeriodSeconds`. */
  key: string;
  /** Its value, as the schema parsed it. */
  value: unknown;
  /** Who set it: `config`, `route`, or the person. */
  by: string;
}

/** What a run returns: its verdict and each step's outcome, as `responder run -o json` prints it. */
export interface Report {
  /** Unique per run (a UUID). */
  runId: string;
  /** The runbook's id. */
  runbook: string;
  /** The cluster's name. */
  cluster: string;
  /** How it was asked to act. */
  mode: Mode;
  /** The run in one word. */
  verdict: Verdict;
  /** In the order they ran, skipped ones included. */
  steps: StepReport[];
  /** ISO times and the run's length. */
  timings: { startedAt: string; finishedAt: string; durationMs: number };
  /** The params it ran with, and who set each: shown beside a plan waiting for approval. */
  params?: ParamSetting[];
}
