import { fingerprint } from './fingerprint.ts';
import { outcome } from './outcome.ts';
import type { DoneAction, Mode, Outcome, Report, Step, StepReport } from './types.ts';
import { verdictOf } from './verdict.ts';

/**
 * What a run did before it paused (its invocation was ending), for the invocation that continues
 * it: kept in the state table as JSON, so the runbook's state must be plain data.
 */
export interface RunCheckpoint {
  /** When the run's first invocation started it: the report's start. */
  startedAt: string;
  /** The steps it finished, as reported. */
  steps: StepReport[];
  /** The runbook's state after them. */
  state: unknown;
  /** The step it paused in. */
  paused: {
    id: string;
    /** What the step saved to go on from (its `ctx.saved` in the next invocation). */
    saved: unknown;
    /** Its outcome as it stands, with every write it made so far: the report if the run cannot go on. */
    sofar: Outcome;
    /** How long it ran in the invocations so far. */
    durationMs: number;
  };
  /** Writes the run counted against its caps so far. */
  used: { evictions: number; agentRestarts: number };
}

/** The steps of a step report with its fingerprints, as the engine reports every step. */
export function stepReport(
  step: Pick<Step, 'id' | 'title'>,
  result: Outcome,
  where: { cluster: string; runbook: string },
  durationMs: number,
): StepReport {
  return {
    id: step.id,
    title: step.title,
    ...result,
    findings: result.findings.map((finding) => ({
      ...finding,
      fingerprint: fingerprint(where.cluster, where.runbook, finding.code, finding.target),
    })),
    durationMs,
  };
}

/** The writes of the paused step in earlier invocations, before this invocation's. */
export const doneBefore = (checkpoint: RunCheckpoint | undefined): DoneAction[] =>
  checkpoint?.paused.sofar.done ?? [];

/**
 * The report of a run that ends at its checkpoint (its time ran out, or it used its
 * invocations): the steps it finished, the step it paused in as an error saying `why` with what
 * it found so far, and the steps after it skipped.
 */
export function reportAtCheckpoint(
  checkpoint: RunCheckpoint,
  run: {
    runId: string;
    runbook: { id: string; steps: readonly Pick<Step, 'id' | 'title'>[] };
    cluster: string;
    mode: Mode;
    now: Date;
    why: string;
  },
): Report {
  const where = { cluster: run.cluster, runbook: run.runbook.id };
  const { paused } = checkpoint;
  const at = run.runbook.steps.findIndex((step) => step.id === paused.id);
  const cut: Outcome = { ...paused.sofar, status: 'error', summary: `${run.why}: ${paused.sofar.summary}` };
  const steps: StepReport[] = [
    ...checkpoint.steps,
    stepReport(run.runbook.steps[at] ?? { id: paused.id, title: paused.id }, cut, where, paused.durationMs),
    ...run.runbook.steps
      .slice(at + 1)
      .map((step) => stepReport(step, outcome('skip', 'skipped: an earlier step failed'), where, 0)),
  ];
  const startedAt = new Date(checkpoint.startedAt);
  return {
    runId: run.runId,
    runbook: run.runbook.id,
    cluster: run.cluster,
    mode: run.mode,
    verdict: verdictOf(run.mode, steps, false),
    steps,
    timings: {
      startedAt: checkpoint.startedAt,
      finishedAt: run.now.toISOString(),
      durationMs: run.now.getTime() - startedAt.getTime(),
    },
  };
}
