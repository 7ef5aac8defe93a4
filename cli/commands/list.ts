import { Command } from 'commander';
import { CONFIG_HELP } from '../options.ts';

/** `responder list`: the runbooks, what each checks, and where its doc is. */
export function listCommand(): Command {
  return new Command('list')
    .description('list the runbooks')
    .option('--config <path>', `${CONFIG_HELP}; its runbooks are listed after the built-in ones`)
    .action(async (options: { config?: string }) => (await import('../actions/list.ts')).listAction(options));
}
