import { createHash } from 'node:crypto';
import type { RunSummary } from '../report/summary.ts';
import type { ThreadRef } from '../store/types.ts';
import { countsText } from './report-summary.ts';

/**
 * Which thread a report goes to, and whether it also says something in it. A problem is what is
 * open for one (cluster, runbook): the kinds of its open findings, by fingerprint. The same
 * problem keeps its thread, whose head is edited in place run after run; the thread gets a reply
 * only when the state changes, and says so when the problem is gone. A new problem opens a new
 * thread, so a later incident is not buried under an old one.
 */
export type ThreadDecision =
  | { kind: 'update'; reply?: string; next: Pick<ThreadRef, 'problem' | 'state'> }
  | { kind: 'new'; next: Pick<ThreadRef, 'problem' | 'state'> };

/** The open problem's identity: its finding kinds (codes), hashed; empty when nothing is open. */
export function problemOf(summary: Pick<RunSummary, 'open' | 'cluster' | 'runbook'>): string {
  const codes = [...new Set(summary.open.map((problem) => problem.code))].sort();
  if (codes.length === 0) return '';
  return createHash('sha256')
    .update([summary.cluster, summary.runbook, ...codes].join('\u0000'))
    .digest('hex')
    .slice(0, 16);
}

function stateOf(summary: RunSummary): string {
  return `${summary.verdictWord}: ${countsText(summary)}`;
}

export function threadFor(summary: RunSummary, active: ThreadRef | undefined): ThreadDecision {
  const problem = problemOf(summary);
  const state = stateOf(summary);
  const next = { problem, state };
  // Nothing open: the thread that was about a problem says it is resolved (and stays its home).
  if (active && (problem === '' || active.problem === problem)) {
    if (active.problem && problem === '')
      return { kind: 'update', reply: `Resolved: ${summary.diagnosis}`, next };
    if (active.state !== state) return { kind: 'update', reply: `Now ${state}. ${summary.diagnosis}`, next };
    return { kind: 'update', next };
  }
  return { kind: 'new', next };
}
