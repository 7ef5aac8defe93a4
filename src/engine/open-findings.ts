import type { StepReport } from './types.ts';

/** Whether any step's write actually happened. */
export function actedOn(steps: readonly StepReport[]): boolean {
  return steps.some((step) => step.done.some((action) => action.outcome === 'done'));
}
