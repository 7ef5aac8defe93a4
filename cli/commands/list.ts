import { Command } from 'commander';

/** `responder list`: the runbooks, what each checks, and where its doc is. */
export function listCommand(): Command {
  return new Command('list')
    .description('list the runbooks')
    .action(async () => (await import('../actions/list.ts')).listAction());
}
