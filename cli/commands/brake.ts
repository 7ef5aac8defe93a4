import { Command, Option } from 'commander';
import type { BrakeOptions } from '../actions/brake.ts';
import { CONFIG_HELP, SERVER_HELP, TOKEN_HELP } from '../options.ts';

/** `responder brake status|reset`: the brake on cluster writes, seen and lifted by a person. */
export function brakeCommand(): Command {
  const brake = new Command('brake').description('the brake on cluster writes');
  brake
    .command('status')
    .description('per cluster: writes in the window against the limit, tripped or not, when it frees')
    .argument('[cluster]', 'one cluster (default: every cluster of the config and the run history)')
    .addOption(
      new Option('-o, --output <format>', 'how to print it').choices(['table', 'json']).default('table'),
    )
    .option('--config <path>', CONFIG_HELP)
    .action(async (cluster: string | undefined, options) =>
      (await import('../actions/brake.ts')).brakeStatusAction(cluster, options),
    );
  brake
    .command('reset')
    .description('let cluster writes go again now, instead of at the end of the window')
    .argument('<cluster>', 'a configured cluster')
    .option('--server <url>', SERVER_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--config <path>', CONFIG_HELP)
    .action(async (cluster: string, options: BrakeOptions) =>
      (await import('../actions/brake.ts')).brakeResetAction(cluster, options),
    );

  return brake;
}
