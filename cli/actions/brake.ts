import { localUser } from '../local-app.ts';
import { withLocalApp } from '../local-operator.ts';
import { callServer } from '../server-client.ts';

export interface BrakeOptions {
  server?: string;
  token?: string;
  config?: string;
}

/** The command's work, loaded only when it runs. */
export async function brakeResetAction(cluster: string, options: BrakeOptions) {
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
}
