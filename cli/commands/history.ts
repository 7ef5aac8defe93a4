import { Command } from 'commander';
import type { RunRecord } from '../../src/store/types.ts';
import { table } from '../format/report.ts';
import { callServer, DEFAULT_SERVER } from '../server-client.ts';

/** `responder history`: the audit trail of runs, newest first. */
export function historyCommand(): Command {
  return new Command('history')
    .description('list past runs: who or what started them, mode, verdict, what was done')
    .option('--cluster <name>', 'only this cluster')
    .option('--json', 'print the records as JSON')
    .option('--server <url>', 'the responder to ask', DEFAULT_SERVER)
    .option('--token <token>', 'its webhook token (default: $ALERTMANAGER_TOKEN)')
    .action(async (options: { cluster?: string; json?: boolean; server: string; token?: string }) => {
      const query = options.cluster ? `?cluster=${encodeURIComponent(options.cluster)}` : '';
      const { runs } = await callServer<{ runs: RunRecord[] }>(options, `/runs${query}`);
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
