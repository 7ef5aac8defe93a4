import { stringify } from 'yaml';
import type { HistoryPage } from '../../src/app/app.ts';
import { collectPages } from '../../src/store/run-pages.ts';
import type { RunRecord } from '../../src/store/types.ts';
import type { OutputFormat } from '../format/output.ts';
import { table } from '../format/report.ts';
import { withLocalApp } from '../local-operator.ts';
import { callServer } from '../server-client.ts';

export interface HistoryOptions {
  cluster?: string;
  runbook?: string;
  verdict?: string;
  since?: string;
  output: OutputFormat;
  limit: number;
  server?: string;
  token?: string;
  config?: string;
}

/** Up to `limit` runs, newest first, read page by page (the server's or the local app's), filtered. */
async function runsOf(options: HistoryOptions): Promise<RunRecord[]> {
  const filters = Object.fromEntries(
    (['cluster', 'runbook', 'verdict', 'since'] as const).flatMap((key) =>
      options[key] === undefined ? [] : [[key, options[key]]],
    ),
  );
  const server = options.server;
  if (server) {
    return collectPages((next, want) => {
      const search = new URLSearchParams({ ...filters, limit: String(want), ...(next ? { next } : {}) });
      return callServer<HistoryPage>({ ...options, server }, `/runs?${search}`);
    }, options.limit);
  }
  return withLocalApp(options.config, (app) =>
    collectPages((next, want) => app.history({ ...filters, limit: want, next }), options.limit),
  );
}

/** Why the run was started (alerts, a schedule, an approval) or, when it ended badly, why it did. */
function why(run: RunRecord): string {
  if (run.error) return run.error;
  if (run.verdict === 'failed' && run.summary) return run.summary.diagnosis;
  // A run from the terminal was started by the person in BY: nothing more to say.
  return run.reason === run.source ? '-' : run.reason;
}

/** Writes that happened, and those that may have (their answer was lost): `2 + 1 unconfirmed`. */
function writesColumn(actions: readonly string[]): string {
  const done = actions.filter((a) => a.includes(': done')).length;
  const unconfirmed = actions.filter((a) => a.includes(': unconfirmed')).length;
  return unconfirmed > 0 ? `${done} + ${unconfirmed} unconfirmed` : String(done);
}

function historyTable(runs: readonly RunRecord[]): string {
  if (runs.length === 0) return 'no runs yet\n';
  const rows = runs.map((r) => [
    r.queuedAt,
    r.cluster,
    r.runbook,
    r.mode,
    `${r.source}:${r.actor}`,
    r.verdict ?? r.status,
    r.summary ? `${r.summary.found}/${r.summary.fixed}/${r.summary.open}` : '-',
    writesColumn(r.actions),
    why(r),
  ]);
  const header = [
    'QUEUED',
    'CLUSTER',
    'RUNBOOK',
    'MODE',
    'BY',
    'RESULT',
    'FOUND/FIXED/OPEN',
    'WRITES',
    'WHY',
  ];
  return `${table([header, ...rows], 160).join('\n')}\n`;
}

/** The command's work, loaded only when it runs. JSON and YAML: the records, newest first, as a list. */
export async function historyAction(options: HistoryOptions) {
  // The full reports stay out: `run -o json` prints those; the record says what a list needs.
  const runs = (await runsOf(options)).map(({ report: _report, ...record }) => record);
  if (options.output === 'json') process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
  else if (options.output === 'yaml') process.stdout.write(stringify(runs));
  else process.stdout.write(historyTable(runs));
}
