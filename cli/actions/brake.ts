import type { BrakeState } from '../../src/store/types.ts';
import type { OutputFormat } from '../format/output.ts';
import { table } from '../format/report.ts';
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

/** `in 12 min`, `in 40 s`: how long until a time, as a person reads it beside the clock time. */
function fromNow(at: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((Date.parse(at) - now) / 1000));
  return seconds < 120 ? `in ${seconds} s` : `in ${Math.round(seconds / 60)} min`;
}

function statusRow(state: BrakeState): string[] {
  const frees = state.engaged ? `${state.windowEndsAt} (${fromNow(state.windowEndsAt)})` : '-';
  return [state.cluster, `${state.used}/${state.limit}`, state.engaged ? 'tripped' : 'off', frees];
}

/**
 * `brake status`: per cluster (the one named, else every cluster of the config and the run
 * history), the writes counted in the window against the limit, whether the brake is tripped, and
 * when it frees.
 */
export async function brakeStatusAction(
  cluster: string | undefined,
  options: { config?: string; output: OutputFormat },
) {
  const { states, windowMinutes } = await withLocalApp(options.config, async (app) => {
    const clusters = cluster
      ? [cluster]
      : [
          ...new Set([
            ...app.ports.config.clusters.map((c) => c.name),
            ...(await app.history({ limit: 200 })).runs.map((run) => run.cluster),
          ]),
        ];
    return {
      states: await Promise.all(clusters.map((name) => app.brakeState(name))),
      windowMinutes: app.ports.config.limits.brake.windowMinutes,
    };
  });
  if (options.output === 'json') {
    process.stdout.write(`${JSON.stringify(states, null, 2)}\n`);
    return;
  }
  if (states.length === 0) {
    process.stdout.write('no clusters yet: none in the config, none in the run history\n');
    return;
  }
  const header = ['CLUSTER', `WRITES (last ${windowMinutes} min)`, 'BRAKE', 'FREES'];
  process.stdout.write(`${table([header, ...states.map(statusRow)]).join('\n')}\n`);
}
