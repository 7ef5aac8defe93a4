import type { ResponderConfig } from '../../src/config/schema.ts';
import { DEFAULT_CONFIG, localSetup, localUser } from '../local-app.ts';
import { runLocally } from '../local-run.ts';
import { openState } from '../state-option.ts';

/** The command's work, loaded only when it runs. */
export async function sweepAction(
  schedule: string,
  options: { config?: string; state: boolean },
  setExitCode: (code: number) => void,
) {
  // Named explicitly, so a missing file is an error that says what to do.
  const setup = await localSetup(options.config ?? DEFAULT_CONFIG);
  const config = setup.config as ResponderConfig;
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
    setExitCode((await runLocally(trigger, config, state.store, { runbooks: setup.runbooks })).exitCode);
  } finally {
    await state.close();
  }
}
