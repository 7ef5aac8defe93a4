import type { RunSummary } from '../report/summary.ts';
import type { ThreadRef } from '../store/types.ts';
import { countsText } from './report-summary.ts';

/**
 * Which thread a report goes to, and whether it also says something in it. A problem is what is
 * open for one (cluster, runbook). While it is open it keeps its thread, whose head is edited in
 * place run after run (a partial fix, a new symptom: the same incident); the thread gets a reply
 * only when the state changes, and says so when nothing is open any more. A problem found after
 * that opens a new thread, so a later incident is not buried under an old one.
 */
export type ThreadDecision =
  | { kind: 'update'; reply?: string; next: Pick<ThreadRef, 'problem' | 'state'> }
  | { kind: 'new'; next: Pick<ThreadRef, 'problem' | 'state'> };

/** What is open, by finding kind (codes, sorted): kept in the index; empty when nothing is open. */
export function problemOf(summary: Pick<RunSummary, 'open'>): string {
  return [...new Set(summary.open.map((problem) => problem.code))].sort().join(',');
}

function stateOf(summary: RunSummary): string {
  return `${summary.verdictWord}: ${countsText(summary)}`;
}

export function threadFor(summary: RunSummary, active: ThreadRef | undefined): ThreadDecision {
  const problem = problemOf(summary);
  const state = stateOf(summary);
  const next = { problem, state };
  const update = (reply?: string): ThreadDecision =>
    reply ? { kind: 'update', reply, next } : { kind: 'update', next };
  if (active?.problem) {
    if (problem === '') return update(`Resolved: ${summary.diagnosis}`);
    return update(active.state !== state ? `Now ${state}. ${summary.diagnosis}` : undefined);
  }
  // A resolved (or never broken) thread takes further all-clear reports, not a new problem.
  if (active && problem === '') return update(active.state !== state ? `Now ${state}.` : undefined);
  return { kind: 'new', next };
}
