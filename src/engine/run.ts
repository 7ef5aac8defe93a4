import { randomUUID } from 'node:crypto';
import { defaultMaxListeners, setMaxListeners } from 'node:events';
import { anySignal } from '../cluster/any-signal.ts';
import { RESPONDER_RULES } from '../cluster/permissions.ts';
import type { ClusterAccess } from '../cluster/types.ts';
import { ciliumUntilAborted, readerUntilAborted, untilAborted } from '../cluster/until-aborted.ts';
import { withinRules } from '../cluster/within-rules.ts';
import { paramsFromText } from '../params/text.ts';
import { issueLine, issuesOf } from '../validation/issues.ts';
import { createActuator } from './actuator.ts';
import { doneBefore, type RunCheckpoint, reportAtCheckpoint, stepReport } from './checkpoint.ts';
import { outcome } from './outcome.ts';
import {
  type Brake,
  DEFAULT_LIMITS,
  type Limits,
  type Logger,
  type Mode,
  type Outcome,
  type Report,
  type Runbook,
  type StepContext,
  type StepReport,
  type WriteJournal,
} from './types.ts';
import { verdictOf } from './verdict.ts';

export interface RunOptions<P, S = unknown> {
  runbook: Runbook<P, S>;
  access: ClusterAccess;
  mode: Mode;
  /** Raw parameters, validated by the runbook's schema before anything runs. */
  params?: unknown;
  limits?: Partial<Limits>;
  brake?: Brake;
  /** `<action>:<target>` keys a person approved (a resumed `approve` run). */
  approved?: Iterable<string>;
  /** The whole run's time budget (default 5 minutes). */
  deadlineMs?: number;
  /**
   * Stops the run from outside (Ctrl-C): the step under way is cut off, every wait, exec and
   * monitor in it ends, the writes in flight settle, and the run rejects with the signal's reason.
   */
  signal?: AbortSignal;
  log?: Logger;
  now?: () => Date;
  runId?: string;
  /** Why the run may no longer write (it lost its lease), asked as each write is sent. */
  fence?: () => string | undefined;
  /** Where each write is journaled before it is sent and after (the worker's audit record). */
  journal?: WriteJournal;
  onProgress?: (step: string, done: number, total: number, label: string, endsAt?: number) => void;
  /**
   * True once this invocation must stop taking new work (the worker's invocation, or the run's
   * time, is ending): a step that can go on in the next invocation saves what it did with
   * `ctx.pause`, and the run returns its checkpoint. Never true when absent.
   */
  pausing?: () => boolean;
  /** What the run did in its earlier invocations: it goes on from there. */
  resumeFrom?: RunCheckpoint;
}

/** How long a run may take when its options say nothing. */
export const DEFAULT_DEADLINE_MS = 300_000;

/** One invocation of a run: the run's report, or the checkpoint it paused at. */
export type InvocationResult = { report: Report; checkpoint?: undefined } | { checkpoint: RunCheckpoint };

export const SILENT: Logger = { info() {}, warn() {}, error() {} };
const UNLIMITED: Brake = { tryWrite: async () => true };

/** Thrown before anything runs when the runbook's params do not validate. */
export class InvalidParamsError extends Error {
  constructor(runbook: string, issues: string) {
    super(`invalid parameters for runbook ${runbook}: ${issues}`);
    this.name = 'InvalidParamsError';
  }
}

/**
 * Text read as the schema wants it here too: the deployed admission knows a team's runbook by its
 * param keys only, so its Slack params reach the worker as text.
 */
function parseParams<P, S>(runbook: Runbook<P, S>, raw: unknown): P {
  const parsed = runbook.params.safeParse(paramsFromText(runbook.params, raw ?? {}));
  if (parsed.success) return parsed.data;
  throw new InvalidParamsError(runbook.id, issuesOf(parsed.error).map(issueLine).join('; '));
}

function errorOutcome(error: unknown, signal: AbortSignal): Outcome {
  if (signal.aborted) return outcome('error', 'deadline passed before the step finished');
  return outcome('error', error instanceof Error ? error.message : String(error));
}

/** Why a run was stopped from outside, as its reason says it. */
function stoppedError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason ?? 'stopped'));
}

/**
 * Runs a runbook's steps in order under a deadline, in a mode, with every write through one
 * actuator, and returns the Report. In `approve` mode it plans the first write step, then stops.
 * A step that throws is reported as an error (the run's verdict is then `failed`); later steps
 * are skipped, because they depend on what the failed step would have found. A run that pauses
 * here has nothing to go on in: it reports what it did, its time having run out.
 */
export async function runRunbook<P, S>(options: RunOptions<P, S>): Promise<Report> {
  const result = await runInvocation(options);
  if (!result.checkpoint) return result.report;
  return reportAtCheckpoint(result.checkpoint, {
    runId: options.runId ?? randomUUID(),
    runbook: options.runbook,
    cluster: options.access.name,
    mode: options.mode,
    now: (options.now ?? (() => new Date()))(),
    why: 'its time ran out before it finished',
  });
}

/**
 * One invocation of a run (see runRunbook): from the start, or from `resumeFrom`, skipping the
 * steps it finished and giving the step it paused in what that step saved. When a step pauses
 * (`ctx.pause`), the steps after it wait and the checkpoint comes back instead of a report.
 */
export async function runInvocation<P, S>(options: RunOptions<P, S>): Promise<InvocationResult> {
  const { runbook, access, mode } = options;
  const params = parseParams(runbook, options.params);
  const now = options.now ?? (() => new Date());
  const log = options.log ?? SILENT;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const resumed = options.resumeFrom;
  const startedAt = resumed ? new Date(resumed.startedAt) : now();
  const deadline = AbortSignal.timeout(options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const stop = options.signal;
  const signal = stop ? anySignal([deadline, stop]) : deadline;
  // Each exec in flight listens to the run's signal, and so does its retry loop, until it ends: a
  // fan-out holds twice its concurrency at once, which is not the leak node warns of past ten.
  setMaxListeners(2 * limits.concurrency + defaultMaxListeners, signal);
  const approved = new Set(options.approved ?? []);
  const actuator = createActuator({
    cluster: access.name,
    kube: access.kube,
    cilium: access.cilium,
    mode,
    limits,
    brake: options.brake ?? UNLIMITED,
    log,
    approved,
    signal,
    ...(resumed ? { used: resumed.used } : {}),
    ...(options.fence ? { fence: options.fence } : {}),
    ...(options.journal ? { journal: options.journal } : {}),
  });
  // Steps get a handle with no write methods (the actuator above holds the one that writes) that
  // reads only what the deploy's RBAC allows: the responder's rules and the runbook's declared ones.
  // Every read, exec and fan-out of a step ends with the run (the deadline, or a stop).
  const kube = readerUntilAborted(
    withinRules(access.kube, runbook.id, [...RESPONDER_RULES, ...(runbook.permissions ?? [])], access.cilium),
    signal,
  );
  const cilium = ciliumUntilAborted(access.cilium, signal);
  const state = resumed ? (resumed.state as S) : runbook.newState();
  const steps: StepReport[] = [...(resumed?.steps ?? [])];
  const finished = new Set(steps.map((step) => step.id));
  const where = { cluster: access.name, runbook: runbook.id };
  const pausing = options.pausing ?? (() => false);
  let stoppedForApproval = false;
  let failed = steps.some((step) => step.status === 'error');

  for (const step of runbook.steps) {
    if (finished.has(step.id)) continue;
    const stepStarted = performance.now();
    const carried = resumed?.paused.id === step.id ? resumed : undefined;
    // Set by the step's `ctx.pause` (a closure, hence a holder TypeScript does not narrow away).
    const pause: { at?: { saved: unknown; sofar: Outcome } } = {};
    const ctx: StepContext<P, S> = {
      cluster: access.name,
      kube,
      cilium,
      ...(access.aws ? { aws: access.aws } : {}),
      mode,
      limits,
      params,
      actuator,
      signal,
      now,
      log,
      state,
      progress: (done, total, label, endsAt) => options.onProgress?.(step.id, done, total, label, endsAt),
      saved: carried?.paused.saved,
      pausing,
      pause(saved, sofar) {
        pause.at = { saved, sofar };
        return sofar;
      },
    };
    let result: Outcome;
    const decisionsBefore = actuator.journal().length;
    if (failed || stoppedForApproval) {
      result = outcome('skip', failed ? 'skipped: an earlier step failed' : 'waiting for approval');
    } else {
      try {
        const notApplicable = await untilAborted(step.when?.(ctx) ?? Promise.resolve(undefined), signal);
        result = notApplicable ? outcome('skip', notApplicable) : await untilAborted(step.run(ctx), signal);
      } catch (error) {
        // A step cut off (the deadline) or thrown still reports the writes it made: wait for any in
        // flight, then take them from the actuator's journal.
        await actuator.settled();
        // Stopped from outside: no report, the caller records the run as interrupted.
        if (stop?.aborted) throw stoppedError(stop);
        // A step that paused, then threw, did not pause: it failed.
        delete pause.at;
        result = { ...errorOutcome(error, signal), done: [...actuator.journal().slice(decisionsBefore)] };
      }
      // The writes of earlier invocations come first: the step reports only this one's.
      result = { ...result, done: [...doneBefore(carried), ...result.done] };
      failed = result.status === 'error';
      if (step.writes && mode === 'approve' && result.plan.length > 0 && approved.size === 0)
        stoppedForApproval = true;
    }
    const durationMs = Math.round(performance.now() - stepStarted) + (carried?.paused.durationMs ?? 0);
    if (pause.at) {
      await actuator.settled();
      const done = [...doneBefore(carried), ...actuator.journal().slice(decisionsBefore)];
      return {
        checkpoint: {
          startedAt: startedAt.toISOString(),
          steps,
          state,
          paused: { id: step.id, saved: pause.at.saved, sofar: { ...pause.at.sofar, done }, durationMs },
          used: actuator.used(),
        },
      };
    }
    steps.push(stepReport(step, result, where, durationMs));
  }

  const finishedAt = now();
  const report: Report = {
    runId: options.runId ?? randomUUID(),
    runbook: runbook.id,
    cluster: access.name,
    mode,
    verdict: verdictOf(mode, steps, stoppedForApproval),
    steps,
    timings: {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
    },
  };
  return { report };
}
