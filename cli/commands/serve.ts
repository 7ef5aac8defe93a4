import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { loadConfig } from '../../src/config/load.ts';
import { slackDirectory } from '../../src/slack/directory.ts';
import { startLocalServer } from '../serve/local-server.ts';
import { untilInterrupted } from './serve-sim.ts';
import { parsePort } from './sim.ts';

/** `responder serve`: the Lambda's HTTP app on a local port, with memory store, in-process queue and console chat. */
export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'serve the webhook and Slack endpoints locally (in-memory store and queue, reports on the console)',
    )
    .option('--config <file>', 'the responder config', 'responder.config.example.yaml')
    .option('--port <n>', 'port to listen on', parsePort, 8787)
    .action(async (options: { config: string; port: number }) => {
      const config = await loadConfig(options.config, { runbooks: RUNBOOKS.map((r) => r.id) });
      const generated = process.env.ALERTMANAGER_TOKEN ? undefined : randomBytes(18).toString('base64url');
      const server = await startLocalServer({
        config,
        chat: consoleSink(process.stdout),
        secrets: {
          alertmanagerToken: process.env.ALERTMANAGER_TOKEN ?? generated,
          ...(process.env.SLACK_SIGNING_SECRET
            ? { slackSigningSecret: process.env.SLACK_SIGNING_SECRET }
            : {}),
        },
        port: options.port,
        ...(process.env.SLACK_BOT_TOKEN
          ? { directory: slackDirectory({ token: process.env.SLACK_BOT_TOKEN }) }
          : {}),
      });
      const stopped = untilInterrupted(server);
      process.stdout.write(
        [
          `responder ready at ${server.url} (clusters: ${config.clusters.map((c) => c.name).join(', ')})`,
          '  POST /alerts/alertmanager   (Authorization: Bearer $ALERTMANAGER_TOKEN)',
          '  POST /slack/commands, /slack/interactions   (signed with $SLACK_SIGNING_SECRET)',
          '  GET  /runs   (or: npx responder history)',
          ...(generated ? [`ALERTMANAGER_TOKEN was not set; this run uses: ${generated}`] : []),
          '',
        ].join('\n'),
      );
      await stopped;
    });
}
