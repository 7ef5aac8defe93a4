import { Command, InvalidArgumentError, Option } from 'commander';
import { RUNBOOKS, runbookById } from '../../runbooks/index.ts';
import { runRunbook } from '../../src/engine/run.ts';
import type { Mode, Report, Runbook } from '../../src/engine/types.ts';
import { exitCodeOf } from '../../src/engine/verdict.ts';
import { progressLine } from '../format/progress.ts';
import { formatReport, formatSummary } from '../format/report.ts';
import { openTarget } from '../target.ts';
import { parseScenarios } from './sim.ts';

interface RunOptions {
  sim?: string[];
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  config: string;
  mode: Mode;
  json?: boolean;
}

function runbooksNamed(name: string): Runbook<never>[] {
  if (name === 'all') return [...RUNBOOKS];
  try {
    return [runbookById(name)];
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** `responder run`: runs runbooks against one cluster; exit 0 healthy/remediated, 1 problems remain, 2 failed. */
export function runCommand(setExitCode: (code: number) => void): Command {
  return new Command('run')
    .description('run a runbook (or all) against a cluster; dry-run unless --mode auto')
    .argument('<runbook>', `a runbook id or "all" (${RUNBOOKS.map((r) => r.id).join(', ')})`, runbooksNamed)
    .option('--sim <scenario>', 'an in-process simulated cluster with these scenarios', parseScenarios)
    .option('--kubeconfig <path>', 'a kubeconfig file')
    .option('--context <name>', 'the kubeconfig context (default: its current-context)')
    .option('--cluster <name>', 'a cluster from the config file')
    .option('--config <path>', 'the responder config', 'responder.config.yaml')
    .addOption(
      new Option('--mode <mode>', 'dry-run plans only; auto acts within limits')
        .choices(['dry-run', 'auto'])
        .default('dry-run'),
    )
    .option('--json', 'print the report(s) as JSON')
    .action(async (runbooks: Runbook<never>[], options: RunOptions) => {
      const target = await openTarget(options);
      const reports: Report[] = [];
      try {
        for (const runbook of runbooks) {
          const progress = progressLine(process.stderr, runbook.id);
          const report = await runRunbook({
            runbook,
            access: target.access,
            mode: options.mode,
            onProgress: progress.update,
          });
          progress.done();
          reports.push(report);
          if (!options.json) process.stdout.write(`${formatReport(report)}\n`);
        }
      } finally {
        await target.close();
      }
      if (options.json)
        process.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
      else if (reports.length > 1) process.stdout.write(`${formatSummary(reports)}\n`);
      setExitCode(Math.max(...reports.map((r) => exitCodeOf(r.verdict))));
    });
}
