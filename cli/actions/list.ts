import { RUNBOOKS } from '../../runbooks/index.ts';
import { table } from '../format/report.ts';

/** The runbooks, what each checks, and where its doc is. */
export function listAction(): void {
  const rows = [
    ['RUNBOOK', 'WRITES', 'SUMMARY'],
    ...RUNBOOKS.map((r) => [r.id, r.steps.some((s) => s.writes) ? 'yes' : 'no', r.summary]),
  ];
  process.stdout.write(`${table(rows).join('\n')}\n\nDocs: runbooks/<runbook>/README.md\n`);
}
