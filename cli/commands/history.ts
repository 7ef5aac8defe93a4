import { Command } from 'commander';
import type { RunRecord } from '../../src/store/types.ts';
import { table } from '../format/report.ts';
import { withLocalApp } from '../local-operator.ts';
import { callServer, SERVER_HELP, TOKEN_HELP } from '../server-client.ts';

interface HistoryOptions {
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

/** `responder history`: the audit trail of runs, newest first: local runs, or a server's. */
export function historyCommand(): Command {
  return new Command('history')
    .description('list past runs: who or what started them, mode, verdict, what was done')
    .option('--cluster <name>', 'only this cluster')
    .option('--json', 'print the records as JSON')
    .option('--server <url>', SERVER_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--config <path>', 'the responder config (default: $RESPONDER_CONFIG or responder.config.yaml)')
    .action(async (options: HistoryOptions) => {
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
        String(r.actions.filter((a) => a.includes(': done')).length),
        r.reason,
      ]);
      const header = ['QUEUED', 'CLUSTER', 'RUNBOOK', 'MODE', 'BY', 'RESULT', 'WRITES', 'WHY'];
      process.stdout.write(`${runs.length === 0 ? 'no runs yet' : table([header, ...rows]).join('\n')}\n`);
    });
}
