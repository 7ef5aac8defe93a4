import { Command } from 'commander';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { table } from '../format/report.ts';

/** `responder list`: the runbooks, what each checks, and where its doc is. */
export function listCommand(): Command {
  return new Command('list').description('list the runbooks').action(() => {
    const rows = [
      ['RUNBOOK', 'WRITES', 'SUMMARY'],
      ...RUNBOOKS.map((r) => [r.id, r.steps.some((s) => s.writes) ? 'yes' : 'no', r.summary]),
    ];
    process.stdout.write(`${table(rows).join('\n')}\n\nDocs: runbooks/<runbook>.md\n`);
  });
}
