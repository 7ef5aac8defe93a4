import { Command } from 'commander';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { runRunbook } from '../../src/engine/run.ts';
import type { Mode, Report } from '../../src/engine/types.ts';
import { historyTable, webhookPhase } from '../demo/webhook-phase.ts';
import { progressLine } from '../format/progress.ts';
import { formatReport, formatSummary } from '../format/report.ts';
import { openTarget } from '../target.ts';

const MODES: readonly Mode[] = ['dry-run', 'auto'];

/**
 * `responder demo` (`npm start`): every runbook against a simulated cluster with all four
 * incidents, first in dry-run then in auto; then the same incidents as Alertmanager alerts through
 * the local server and queue; and a one-screen summary at the end.
 */
export function demoCommand(setExitCode: (code: number) => void): Command {
  return new Command('demo')
    .description('run every runbook against a simulated cluster with all four incidents (dry-run, then auto)')
    .action(async () => {
      const target = await openTarget({ sim: ['all'], config: '' });
      const reports: Report[] = [];
      try {
        for (const mode of MODES) {
          process.stdout.write(
            `\n=== ${mode}: ${mode === 'dry-run' ? 'what would be done' : 'acting within limits'} ===\n\n`,
          );
          for (const runbook of RUNBOOKS) {
            const progress = progressLine(process.stderr, runbook.id);
            const report = await runRunbook({
              runbook,
              access: target.access,
              mode,
              onProgress: progress.update,
            });
            progress.done();
            reports.push(report);
            process.stdout.write(`${formatReport(report)}\n`);
          }
        }
      } finally {
        await target.close();
      }
      process.stdout.write('\n=== alerts: Alertmanager webhooks through the local server and queue ===\n\n');
      const runs = await webhookPhase(process.stdout);
      process.stdout.write(
        [
          '=== summary ===',
          formatSummary(reports),
          '',
          'Runs started by the alerts (responder history):',
          historyTable(runs),
          '',
          'Explore the same cluster yourself: npx responder sim --scenario all --kubeconfig sim.kubeconfig',
          'Run one runbook: npx responder run unmanaged-pods --sim unmanaged-pods --mode auto',
          '',
        ].join('\n'),
      );
      // The demo succeeds when every run ran; problems left in the simulated cluster are the point.
      setExitCode(
        reports.some((r) => r.verdict === 'failed') || runs.some((r) => r.verdict === 'failed') ? 2 : 0,
      );
    });
}
