import { actedOn } from '../../src/engine/open-findings.ts';
import type { DoneAction, Finding, Report } from '../../src/engine/types.ts';
import { summarize } from '../../src/report/summary.ts';
import { STEP_MARK, table } from '../format/report.ts';
import { CLI_WORDS } from '../format/words.ts';

/** The demo's screen: every line fits in this many columns. */
export const WIDTH = 100;

/** Open findings shown per run; the rest are counted by code. */
const MAX_OPEN = 3;

/** EC2 node names without their DNS suffix (`ip-10-0-64-18`): the demo's lines are narrow. */
export function shortNames(text: string): string {
  return text.replace(/(ip-\d+-\d+-\d+-\d+)\.[a-z0-9-]+\.compute\.internal/g, '$1');
}

/** One line cut to `width` columns, with an ellipsis when cut. */
export function clip(line: string, width = WIDTH): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

/** `text` wrapped at spaces: the first line after `first`, the rest after `indent`; at most `max` lines of `width`. */
export function wrap(first: string, text: string, indent: string, max = 2, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  const kept = lines.slice(0, max);
  if (lines.length > max)
    kept[max - 1] = `${kept[max - 1]} ${lines
      .slice(max)
      .map((l) => l.trim())
      .join(' ')}`;
  return kept.map((l) => clip(l, width));
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Why a finding is still open, without the part the step's summary already says. */
function whyOpen(finding: Finding): string {
  const message = shortNames(finding.message);
  const cut = message.indexOf('; ');
  return cut > 0 ? message.slice(cut + 2) : message;
}

function actionLines(done: readonly DoneAction[], mode: Report['mode']): string[] {
  const lines: string[] = [];
  const groups = new Map<string, DoneAction[]>();
  for (const action of done) {
    const key = `${action.outcome} ${action.action}`;
    groups.set(key, [...(groups.get(key) ?? []), action]);
  }
  for (const [key, actions] of groups) {
    const [outcome = '', action = ''] = key.split(' ');
    const label = outcome === 'planned' && mode === 'dry-run' ? 'would' : outcome;
    const targets = actions.map((a) => shortNames(a.target));
    if (outcome === 'done' || outcome === 'planned') {
      const count = actions.length > 1 ? ` ×${actions.length}` : '';
      lines.push(clip(`  ${label.padEnd(7)}  ${action}${count}: ${targets.join(', ')}`));
    } else {
      for (const a of actions) {
        const why = a.detail ? `: ${shortNames(a.detail)}` : '';
        lines.push(clip(`  ${label.padEnd(7)}  ${action} ${shortNames(a.target)}${why}`));
      }
    }
  }
  return lines;
}

/**
 * One run in a few lines: the verdict, each step's one-line summary, what was done (or would be),
 * and what stays open with the reason the responder leaves it.
 */
export function compactReport(report: Report): string[] {
  const summary = summarize(report, CLI_WORDS);
  const open = summary.open.filter((f) => f.severity !== 'info');
  const done = report.steps.flatMap((s) => s.done);
  const acted = new Set(done.map((d) => d.target));
  const head = [
    `${report.runbook} (${report.mode}): ${summary.verdictWord.toUpperCase()}`,
    `${summary.counts.found} found, ${summary.counts.fixed} fixed, ${summary.counts.open} open`,
    formatMs(report.timings.durationMs),
  ].join(' · ');
  const idWidth = Math.max(...report.steps.map((s) => s.id.length));
  const lines = [
    clip(head),
    ...report.steps.map((s) =>
      clip(`  ${STEP_MARK[s.status]}  ${s.id.padEnd(idWidth)}  ${shortNames(s.summary)}`),
    ),
    ...actionLines(done, report.mode),
  ];
  // What no action covers: the responder leaves it, and the finding says why.
  const leftAlone = open.filter((f) => !acted.has(f.target));
  for (const finding of leftAlone.slice(0, MAX_OPEN)) {
    const first = `  open     ${shortNames(finding.target)}: `;
    lines.push(...wrap(first, whyOpen(finding), '           '));
  }
  if (leftAlone.length > MAX_OPEN) {
    const codes = new Map<string, number>();
    for (const f of leftAlone.slice(MAX_OPEN)) codes.set(f.code, (codes.get(f.code) ?? 0) + 1);
    const rest = [...codes].map(([code, n]) => `${code} ×${n}`).join(', ');
    lines.push(clip(`           …and ${leftAlone.length - MAX_OPEN} more: ${rest}`));
  }
  return lines;
}

export function compactReports(reports: readonly Report[]): string {
  return `${reports.map((r) => compactReport(r).join('\n')).join('\n\n')}\n`;
}

/**
 * Why a run ended where it did, in one short phrase: what it fixed, or why it left the rest
 * (a blocked or skipped action, a write step that did not apply, or a fix only a person can make).
 */
export function outcomeReason(report: Report): string {
  const done = report.steps.flatMap((s) => s.done);
  const fixed = done.filter((d) => d.outcome === 'done');
  const actions = [...new Set(fixed.map((d) => d.action))].join(', ');
  if (report.verdict === 'remediated') return `fixed and verified: ${actions} ×${fixed.length}`;
  if (report.verdict === 'healthy') return 'nothing to fix';
  if (report.verdict === 'needs-approval') {
    const planned = done.filter((d) => d.outcome === 'planned').length;
    return `waits for approval: ${plural(planned, 'action')}`;
  }
  const parts: string[] = [];
  if (fixed.length > 0) parts.push(`${actions} ×${fixed.length} done`);
  const unconfirmed = done.filter((d) => d.outcome === 'unconfirmed').length;
  if (unconfirmed > 0) parts.push(`${plural(unconfirmed, 'write')} may have happened (unconfirmed)`);
  const refused = done.find((d) => d.outcome === 'blocked' || d.outcome === 'skipped');
  if (refused?.detail) parts.push(shortNames(refused.detail));
  const skippedWrite = report.steps.find(
    (s) => s.status === 'skip' && s.done.length === 0 && /restart|evict/.test(s.summary),
  );
  if (skippedWrite && parts.length === 0) parts.push(shortNames(skippedWrite.summary));
  if (parts.length === 0 && !actedOn(report.steps)) {
    const fix = summarize(report, CLI_WORDS).open.find((f) => f.fix)?.fix;
    parts.push(fix ? `no automatic fix; by hand: ${shortNames(fix)}` : 'no automatic fix');
  }
  return parts.join('; ');
}

/** One run in the demo's summary. */
export interface SummaryRow {
  runbook: string;
  mode: string;
  from: string;
  result: string;
  why: string;
}

export function rowOfReport(report: Report, from: string): SummaryRow {
  return {
    runbook: report.runbook,
    mode: report.mode,
    from,
    result: report.verdict,
    why: outcomeReason(report),
  };
}

/** Every run, what it came to and why, one line each, cut to the screen. */
export function summaryTable(rows: readonly SummaryRow[]): string {
  const cells = rows.map((r) => [r.runbook, r.mode, r.from, r.result, shortNames(r.why)]);
  return table([['RUNBOOK', 'MODE', 'FROM', 'RESULT', 'WHY'], ...cells])
    .map((line) => clip(line))
    .join('\n');
}
