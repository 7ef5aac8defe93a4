import { Command, Option } from 'commander';
import type { HistoryOptions } from '../actions/history.ts';
import { OUTPUT_FORMATS } from '../format/output.ts';
import { CONFIG_HELP, parseCount, SERVER_HELP, TOKEN_HELP } from '../options.ts';

/** `responder history`: the audit trail of runs, newest first: local runs, or a server's. */
export function historyCommand(): Command {
  return new Command('history')
    .description('list past runs: who or what started them, mode, verdict, what was done')
    .option('--cluster <name>', 'only this cluster')
    .option('--runbook <id>', 'only this runbook')
    .option(
      '--verdict <verdict>',
      'only runs that ended so: healthy, remediated, needs-approval, degraded, failed',
    )
    .option(
      '--since <when>',
      'only runs queued since then: a time (2026-11-21T09:00:00Z) or how far back (30m, 24h, 7d)',
    )
    .option('--limit <n>', 'at most this many runs, newest first (read page by page)', parseCount, 50)
    .addOption(
      new Option('-o, --output <format>', 'how to print the runs (json, yaml: a list of records)')
        .choices(OUTPUT_FORMATS)
        .default('table'),
    )
    .addOption(new Option('--json', 'the same as -o json').implies({ output: 'json' }))
    .option('--server <url>', SERVER_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--config <path>', CONFIG_HELP)
    .action(async (options: HistoryOptions) =>
      (await import('../actions/history.ts')).historyAction(options),
    );
}
