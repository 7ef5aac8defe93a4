import { table } from '../format/report.ts';
import { localSetup } from '../local-app.ts';

/** The runbooks (built-in, then the config's own), what each checks, and where its doc is. */
export async function listAction(options: { config?: string }): Promise<void> {
  const { runbooks } = await localSetup(options.config);
  const rows = [
    ['RUNBOOK', 'WRITES', 'SUMMARY'],
    ...runbooks.runbooks.map((r) => [r.id, r.steps.some((s) => s.writes) ? 'yes' : 'no', r.summary]),
  ];
  process.stdout.write(`${table(rows).join('\n')}\n\nDocs: runbooks/<runbook>/README.md\n`);
}
