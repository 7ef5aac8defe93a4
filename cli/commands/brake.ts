import { Command } from 'commander';
import { localUser } from '../local-app.ts';
import { withLocalApp } from '../local-operator.ts';
import { callServer, SERVER_HELP, TOKEN_HELP } from '../server-client.ts';

interface BrakeOptions {
  server?: string;
  token?: string;
  config?: string;
}

/** `responder brake reset <cluster>`: a person lets cluster writes go again after the brake tripped. */
export function brakeCommand(): Command {
  const brake = new Command('brake').description('the brake on cluster writes');
  brake
    .command('reset')
    .description('let cluster writes go again now, instead of at the end of the window')
    .argument('<cluster>', 'a configured cluster')
    .option('--server <url>', SERVER_HELP)
    .option('--token <token>', TOKEN_HELP)
    .option('--config <path>', 'the responder config (default: $RESPONDER_CONFIG or responder.config.yaml)')
    .action(async (cluster: string, options: BrakeOptions) => {
      if (options.server)
        await callServer({ ...options, server: options.server }, '/brake/reset', {
          method: 'POST',
          body: JSON.stringify({ cluster }),
        });
      else
        await withLocalApp(options.config, (app) =>
          app.resetBrake(cluster, { source: 'cli', actor: localUser() }),
        );
      process.stdout.write(`brake on ${cluster} reset: cluster writes may go again\n`);
    });
  return brake;
}
