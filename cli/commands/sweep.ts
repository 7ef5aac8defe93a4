import { Command } from 'commander';
import type { ResponderConfig } from '../../src/config/schema.ts';
import { DEFAULT_CONFIG, localConfig, localUser } from '../local-app.ts';
import { runLocally } from '../local-run.ts';
import { openState, STATE_HELP } from '../state-option.ts';

/** `responder sweep`: a configured schedule's compliance sweep, run now, in this process. */
export function sweepCommand(setExitCode: (code: number) => void): Command {
  return new Command('sweep')
    .description("run a schedule's sweep now: its runbooks on its clusters, in its mode")
    .argument('<schedule>', 'a schedule name from the config')
    .option('--config <file>', 'the responder config (default: $RESPONDER_CONFIG or responder.config.yaml)')
    .option('--no-state', STATE_HELP)
    .action(async (schedule: string, options: { config?: string; state: boolean }) => {
      // Named explicitly, so a missing file is an error that says what to do.
      const config = (await localConfig(options.config ?? DEFAULT_CONFIG)) as ResponderConfig;
      const receivedAt = new Date().toISOString();
      const trigger = {
        source: 'schedule' as const,
        receivedAt,
        deliveryKey: `cli-sweep:${schedule}:${receivedAt}`,
        alerts: [],
        actor: localUser(),
        schedule: { name: schedule },
      };
      const state = await openState(options);
      try {
        setExitCode((await runLocally(trigger, config, state.store)).exitCode);
      } finally {
        await state.close();
      }
    });
}
