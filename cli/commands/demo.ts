import { Command } from 'commander';

/**
 * `responder demo` (`npm start`): every runbook against a simulated cluster with all four
 * incidents, first in dry-run then in auto, through the same admission as every source (state in
 * memory); then the same incidents as Alertmanager alerts through
 * the local server and queue; and a one-screen summary at the end.
 */
export function demoCommand(setExitCode: (code: number) => void): Command {
  return new Command('demo')
    .description('run every runbook against a simulated cluster with all four incidents (dry-run, then auto)')
    .action(async () => {
      // Said before the demo's code loads and its cluster starts, so the wait is never silent.
      process.stdout.write(
        'Cilium Responder demo: starting a simulated EKS cluster with all four Cilium incidents...\n',
      );
      await (await import('../actions/demo.ts')).demoAction(setExitCode);
    });
}
