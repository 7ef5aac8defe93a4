import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { localSignIn } from '../../functions/console/local-sign-in.ts';
import { loadConfigWithRunbooks } from '../../runbooks/team.ts';
import { consoleSink } from '../../src/chat/console.ts';
import { slackDirectory } from '../../src/slack/directory.ts';
import { DEFAULT_CONFIG, localUser } from '../local-app.ts';
import { openLocalState } from '../local-state.ts';
import { projectFile } from '../project-file.ts';
import { startLocalServer } from '../serve/local-server.ts';
import { untilInterrupted } from '../serve/serve-sim.ts';
import { sayLeftBehind } from '../state-option.ts';

/** Without --config: the project's config, else the shipped example (its simulated cluster), to try it. */
function servedConfig(): string {
  return process.env.RESPONDER_CONFIG || existsSync(DEFAULT_CONFIG)
    ? DEFAULT_CONFIG
    : projectFile('responder.config.example.yaml');
}

/** A secret from the environment, or one made up for this run (and printed, so it can be used). */
function secretFromEnv(name: string, generated: string[]): string {
  const value = process.env[name];
  if (value) return value;
  const made = randomBytes(18).toString('base64url');
  generated.push(`${name} was not set; this run uses: ${made}`);
  return made;
}

export interface ServeOptions {
  config?: string;
  port: number;
  state?: boolean;
}

/** The command's work, loaded only when it runs. */
export async function serveAction(options: ServeOptions) {
  const { config, runbooks } = await loadConfigWithRunbooks(options.config ?? servedConfig());
  const generated: string[] = [];
  const state = options.state ? sayLeftBehind(await openLocalState()) : undefined;
  const user = localUser();
  const signIn = localSignIn({ userId: user.id, ...(user.name ? { name: user.name } : {}) });
  // Known once it listens (--port 0 picks one): each report printed ends with its run's console page.
  let consoleUrl: string | undefined;
  const server = await startLocalServer({
    config,
    runbooks,
    chat: consoleSink(process.stdout, () => consoleUrl),
    ...(state ? { store: state.store } : {}),
    secrets: {
      alertmanagerToken: secretFromEnv('ALERTMANAGER_TOKEN', generated),
      operatorToken: secretFromEnv('RESPONDER_OPERATOR_TOKEN', generated),
      ...(process.env.SLACK_SIGNING_SECRET ? { slackSigningSecret: process.env.SLACK_SIGNING_SECRET } : {}),
    },
    // Served over http on the loopback only, so the cookie cannot ask for https; sessions end with the server.
    console: {
      session: { secret: randomBytes(32).toString('base64url'), secure: false },
      signIn: [signIn.method],
      localUser: user.id,
    },
    port: options.port,
    ...(process.env.SLACK_BOT_TOKEN
      ? { directory: slackDirectory({ token: process.env.SLACK_BOT_TOKEN }) }
      : {}),
  });
  consoleUrl = server.url;
  const stopped = untilInterrupted({
    close: async () => {
      await server.close();
      await state?.close();
    },
  });
  process.stdout.write(
    [
      `responder ready at ${server.url} (clusters: ${config.clusters.map((c) => c.name).join(', ')})`,
      `console: ${signIn.link(server.url)}`,
      '  POST /alerts/alertmanager   (Authorization: Bearer $ALERTMANAGER_TOKEN)',
      '  POST /slack/commands, /slack/interactions   (signed with $SLACK_SIGNING_SECRET)',
      `  GET  /runs   (or: npx responder history --server ${server.url}; token $RESPONDER_OPERATOR_TOKEN)`,
      state
        ? `  state: ${state.dir}`
        : '  state: in memory (runs, dedupe and the brake are forgotten when it stops; --state keeps them)',
      ...generated,
      '',
    ].join('\n'),
  );
  await stopped;
}
