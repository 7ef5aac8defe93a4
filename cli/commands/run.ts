import { Command, InvalidArgumentError, Option } from 'commander';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import type { RunOptions } from '../actions/run.ts';
import { CONFIG_HELP, parseScenarios, STATE_HELP } from '../options.ts';

function runbookNamed(name: string): string {
  if (name === 'all' || (RUNBOOK_IDS as readonly string[]).includes(name)) return name;
  throw new InvalidArgumentError(`unknown runbook "${name}"; known runbooks: ${RUNBOOK_IDS.join(', ')}`);
}

/**
 * `responder run`: a runbook (or all) against one cluster, admitted like every other source: the
 * config's limits and exclusions, the lease, the brake (shared with earlier runs through the
 * local state) and an audit record (`responder history`). Exit 0 healthy/remediated, 1 problems
 * remain, 2 failed.
 */
export function runCommand(setExitCode: (code: number) => void): Command {
  return new Command('run')
    .description('run a runbook (or all) against a cluster; dry-run unless --mode auto')
    .argument('<runbook>', `a runbook id or "all" (${RUNBOOK_IDS.join(', ')})`, runbookNamed)
    .option('--sim <scenario>', 'an in-process simulated cluster with these scenarios', parseScenarios)
    .option('--kubeconfig <path>', 'a kubeconfig file')
    .option('--context <name>', 'the kubeconfig context (default: its current-context)')
    .option('--cluster <name>', 'a cluster from the config file')
    .option('--config <path>', CONFIG_HELP)
    .addOption(
      new Option('--mode <mode>', 'dry-run plans only; auto acts within limits')
        .choices(['dry-run', 'auto'])
        .default('dry-run'),
    )
    .option('--json', 'print the report(s) as JSON')
    .option('--no-state', STATE_HELP)
    .action(async (runbook: string, options: RunOptions) =>
      (await import('../actions/run.ts')).runAction(runbook, options, setExitCode),
    );
}
