import type { StepReport } from './types.ts';

/** Whether any step's write happened, or may have (its answer was lost). */
export function actedOn(steps: readonly StepReport[]): boolean {
  return steps.some((step) =>
    step.done.some((action) => action.outcome === 'done' || action.outcome === 'unconfirmed'),
  );
}

/** Whether a step's write may have happened: its answer was lost. */
export function unconfirmedIn(step: Pick<StepReport, 'done'>): boolean {
  return step.done.some((action) => action.outcome === 'unconfirmed');
}
