import { Command } from 'commander';
import type { BrakeOptions } from '../actions/brake.ts';
import { CONFIG_HELP, SERVER_HELP, TOKEN_HELP } from '../options.ts';
/** `responder brake reset <cluster>`: a person lets cluster writes go again after the brake tripped. */
export function brakeCommand(): Command {
  const brake = new Command('brake').description('the brake on cluster writes');
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
