import { Command, InvalidArgumentError, Option } from 'commander';
import { RUNBOOK_IDS } from '../../runbooks/catalog.ts';
import { RUNBOOK_ID } from '../../sdk/rules.ts';
import type { RunOptions } from '../actions/run.ts';
import { OUTPUT_FORMATS } from '../format/output.ts';
import { CONFIG_HELP, parseScenarios, STATE_HELP } from '../options.ts';

/** A built-in id, `all`, or an id of the form a team's runbook has (checked once the config is loaded). */
function runbookNamed(name: string): string {
  if (name === 'all' || (RUNBOOK_IDS as readonly string[]).includes(name) || RUNBOOK_ID.test(name))
    return name;
  throw new InvalidArgumentError(`unknown runbook "${name}"; known runbooks: ${RUNBOOK_IDS.join(', ')}`);
}

function seconds(text: string): number {
  const value = Number(text.replace(/s$/, ''));
  if (!Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError('expected seconds, e.g. 30 or 30s');
  return value;
}

const collect = (value: string, previous: string[]) => [...previous, value];

// Each example runs as written (test/cli/run-help-examples.test.ts), given the cluster it names.
const EXAMPLES = `
Examples:
  $ responder run all --sim all                                   # every runbook, dry-run, simulated cluster
  $ responder run unmanaged-pods --context prod --mode auto       # a context of $KUBECONFIG or ~/.kube/config
  $ responder run unmanaged-pods --sim unmanaged-pods --set gracePeriodSeconds=120 --set namespaces=shop,web
  $ responder run host-identity --cluster prod-eu --set monitorSeconds=30 -o json
  $ responder run cgroup-root-hooks --kubeconfig ./kind.yaml --cilium-namespace cilium

Exit codes: 0 healthy or remediated, 1 problems remain, 2 the run failed or could not start.`;

/**
 * `responder run`: a runbook (or all) against one cluster, admitted like every other source: the
 * config's limits and exclusions, the lease, the brake (shared with earlier runs through the
 * local state) and an audit record (`responder history`).
 */
export function runCommand(setExitCode: (code: number) => void): Command {
  const command: Command = new Command('run')
    .description('run a runbook (or all) against a cluster; dry-run unless --mode auto')
    // Our own --help: with a runbook named, it lists that runbook's params too.
    .helpOption(false)
    .argument('[runbook]', `a runbook id or "all" (${RUNBOOK_IDS.join(', ')})`, runbookNamed)
    .option(
      '--sim <scenario>',
      'an in-process simulated cluster with these scenarios (names, or files exporting defineScenario)',
      parseScenarios,
    )
    .option(
      '--kubeconfig <path>',
      'a kubeconfig file (default: $KUBECONFIG or ~/.kube/config with --context)',
    )
    .option('--context <name>', 'the kubeconfig context (default: its current-context)')
    .option('--cluster <name>', 'a cluster from the config file')
    .option('--config <path>', CONFIG_HELP)
    .option('--cilium-namespace <ns>', 'where the Cilium agents run (default: kube-system)')
    .option(
      '--set <key=value>',
      "a runbook param (repeatable); the text is read as the param's type: a number, true/false, a comma-separated list, one of its values",
      collect,
      [],
    )
    .addOption(
      new Option(
        '--mode <mode>',
        'dry-run plans only; approve shows the plan and applies it once you type yes; auto acts within limits',
      )
        .choices(['dry-run', 'approve', 'auto'])
        .default('dry-run'),
    )
    .addOption(
      new Option('-o, --output <format>', 'how to print the report').choices(OUTPUT_FORMATS).default('table'),
    )
    .addOption(new Option('--json', 'the same as -o json').implies({ output: 'json' }))
    .option('--request-timeout <seconds>', 'per Kubernetes API request (default: 10)', seconds)
    .option('--no-state', STATE_HELP)
    .option('-h, --help', "this help; after a runbook, that runbook's params too")
    .action(async (runbook: string | undefined, options: RunOptions & { help?: boolean }) => {
      if (options.help) {
        // The runbook's params first: an unknown runbook is an error, not a help page.
        const params =
          runbook && runbook !== 'all'
            ? await (await import('../actions/run-help.ts')).runbookParamsHelp(runbook, options.config)
            : '';
        process.stdout.write(command.helpInformation());
        process.stdout.write(params);
        process.stdout.write(`${EXAMPLES}\n`);
        return;
      }
      if (!runbook) command.error("error: missing required argument 'runbook'", { exitCode: 2 });
      await (await import('../actions/run.ts')).runAction(runbook as string, options, setExitCode);
    });
  return command;
}
