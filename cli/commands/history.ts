import { Command } from 'commander';
import type { HistoryOptions } from '../actions/history.ts';
import { CONFIG_HELP, SERVER_HELP, TOKEN_HELP } from '../options.ts';
/** `responder history`: the audit trail of runs, newest first: local runs, or a server's. */
export function historyCommand(): Command {
  return new Command('history')
    .description('list past runs: who or what started them, mode, verdict, what was done')
    .option('--cluster <name>', 'only this cluster')
    .option('--json', 'print the records as JSON')
    .option('--server <url>', SERVER_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--config <path>', CONFIG_HELP)
    .action(async (options: HistoryOptions) =>
      (await import('../actions/history.ts')).historyAction(options),
    );
}
