import { actionKey } from '../engine/actuator.ts';
import type { DoneAction, Finding, PlannedAction, Report, Severity, Verdict } from '../engine/types.ts';

/** What the chat sinks say about a report, whatever the format. */

export const VERDICT_LABEL: Record<Verdict, string> = {
  healthy: 'healthy',
  remediated: 'remediated',
  'needs-approval': 'needs approval',
  degraded: 'degraded',
  failed: 'failed',
};

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/**
 * Every step's findings, each once (by code and target, the fingerprint's parts; a later step's
 * word on the same problem wins, as it is the newer state), the worst first.
 */
export function findingsOf(report: Report): Finding[] {
  const byProblem = new Map<string, Finding>();
  for (const finding of report.steps.flatMap((step) => step.findings)) {
    const key = `${finding.code}\u0000${finding.target}`;
    byProblem.delete(key);
    byProblem.set(key, finding);
  }
  return [...byProblem.values()].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
}

/** The writes the run wants, once each. */
export function planOf(report: Report): PlannedAction[] {
  const byKey = new Map<string, PlannedAction>();
  for (const action of report.steps.flatMap((step) => step.plan)) {
    const key = actionKey(action.action, action.target);
    if (!byKey.has(key)) byKey.set(key, action);
  }
  return [...byKey.values()];
}

/** What the actuator decided; `planned` entries are left to the plan, which says it better. */
export function actionsOf(report: Report): DoneAction[] {
  return report.steps.flatMap((step) => step.done).filter((action) => action.outcome !== 'planned');
}

/** Whether the report should show its plan: a person must approve it, or a dry run only planned it. */
export function showsPlan(report: Report): boolean {
  return report.verdict === 'needs-approval' || report.mode === 'dry-run';
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** One line for notifications and logs, e.g. `unmanaged-pods on prod-eu: degraded, 3 findings`. */
export function headline(report: Report): string {
  const findings = findingsOf(report).filter((finding) => finding.severity !== 'info').length;
  const parts = [`${report.runbook} on ${report.cluster}: ${VERDICT_LABEL[report.verdict]}`];
  if (findings > 0) parts.push(`${findings} ${findings === 1 ? 'finding' : 'findings'}`);
  if (report.verdict === 'needs-approval') {
    const planned = planOf(report).length;
    parts.push(`${planned} ${planned === 1 ? 'action waits' : 'actions wait'} for approval`);
  }
  return parts.join(', ');
}
