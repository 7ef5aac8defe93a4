import { Command } from 'commander';
import type { ServeOptions } from '../actions/serve.ts';
import { parsePort } from '../options.ts';

/** `responder serve`: the Lambda's HTTP app on a local port, with an in-process queue and console chat. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('serve the webhook and Slack endpoints locally (in-process queue, reports on the console)')
    .option(
      '--config <file>',
      "the responder config (default: $RESPONDER_CONFIG, else responder.config.yaml, else the package's example: a simulated cluster)",
    )
    .option('--port <n>', 'port to listen on', parsePort, 8787)
    .option(
      '--state',
      'keep runs, the brake and leases in the local state directory (default: in memory, gone when it stops)',
    )
    .action(async (options: ServeOptions) => (await import('../actions/serve.ts')).serveAction(options));
}
