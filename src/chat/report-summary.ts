import type { Report } from '../engine/types.ts';
import { type RunSummary, summarize } from '../report/summary.ts';

/** What the chat sinks say about a report, whatever the format. */

/** Whether the report should show its plan: a person must approve it, or a dry run only planned it. */
export function showsPlan(report: Pick<Report, 'verdict' | 'mode'>): boolean {
  return report.verdict === 'needs-approval' || report.mode === 'dry-run';
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The counts every reader shows: `7 found, 3 fixed, 4 open`. */
export function countsText(summary: Pick<RunSummary, 'counts'>): string {
  const { found, fixed, open } = summary.counts;
  return `${found} found, ${fixed} fixed, ${open} open`;
}

/** One line for notifications and logs, e.g. `unmanaged-pods on prod-eu: degraded, 7 found, 3 fixed, 4 open`. */
export function headline(report: Report, summary: RunSummary = summarize(report)): string {
  const parts = [`${report.runbook} on ${report.cluster}: ${summary.verdictWord}`];
  if (summary.counts.found > 0) parts.push(countsText(summary));
  if (report.verdict === 'needs-approval') {
    const planned = summary.plan.length;
    parts.push(`${planned} ${planned === 1 ? 'action waits' : 'actions wait'} for approval`);
  }
  return parts.join(', ');
}
