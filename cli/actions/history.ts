import type { RunRecord } from '../../src/store/types.ts';
import { table } from '../format/report.ts';
import { withLocalApp } from '../local-operator.ts';
import { callServer } from '../server-client.ts';

export interface HistoryOptions {
  cluster?: string;
  json?: boolean;
  server?: string;
  token?: string;
  config?: string;
}

async function runsOf(options: HistoryOptions): Promise<RunRecord[]> {
  if (options.server) {
    const query = options.cluster ? `?cluster=${encodeURIComponent(options.cluster)}` : '';
    return (await callServer<{ runs: RunRecord[] }>({ ...options, server: options.server }, `/runs${query}`))
      .runs;
  }
  return withLocalApp(options.config, (app) =>
    app.history({ ...(options.cluster ? { cluster: options.cluster } : {}), limit: 50 }),
  );
}

/** The command's work, loaded only when it runs. */
export async function historyAction(options: HistoryOptions) {
  const runs = await runsOf(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return;
  }
  const rows = runs.map((r) => [
    r.queuedAt,
    r.cluster,
    r.runbook,
    r.mode,
    `${r.source}:${r.actor}`,
    r.verdict ?? r.status,
    r.summary ? `${r.summary.found}/${r.summary.fixed}/${r.summary.open}` : '-',
    String(r.actions.filter((a) => a.includes(': done')).length),
    r.reason,
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
  process.stdout.write(`${runs.length === 0 ? 'no runs yet' : table([header, ...rows]).join('\n')}\n`);
}
