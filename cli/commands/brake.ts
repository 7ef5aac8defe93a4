import { Command } from 'commander';
import { callServer, DEFAULT_SERVER } from '../server-client.ts';

/** `responder brake reset <cluster>`: a person lets cluster writes go again after the brake tripped. */
export function brakeCommand(): Command {
  const brake = new Command('brake').description('the brake on cluster writes');
  brake
    .command('reset')
    .description('let cluster writes go again now, instead of at the end of the window')
    .argument('<cluster>', 'a configured cluster')
    .option('--server <url>', 'the responder to ask', DEFAULT_SERVER)
    .option('--token <token>', 'its webhook token (default: $ALERTMANAGER_TOKEN)')
    .action(async (cluster: string, options: { server: string; token?: string }) => {
      await callServer(options, '/brake/reset', { method: 'POST', body: JSON.stringify({ cluster }) });
      process.stdout.write(`brake on ${cluster} reset: cluster writes may go again\n`);
    });
  return brake;
}
