import { Command } from 'commander';
import { CONFIG_HELP, STATE_HELP } from '../options.ts';
/** `responder sweep`: a configured schedule's compliance sweep, run now, in this process. */
export function sweepCommand(setExitCode: (code: number) => void): Command {
  return new Command('sweep')
    .description("run a schedule's sweep now: its runbooks on its clusters, in its mode")
    .argument('<schedule>', 'a schedule name from the config')
    .option('--config <file>', CONFIG_HELP)
    .option('--no-state', STATE_HELP)
    .action(async (schedule: string, options: { config?: string; state: boolean }) =>
      (await import('../actions/sweep.ts')).sweepAction(schedule, options, setExitCode),
    );
}
