import { type App, createApp } from '../src/app/app.ts';
import { DEFAULT_LIMITS_CONFIG, DEFAULT_SLASH_COMMAND, type ResponderConfig } from '../src/config/schema.ts';
import { localConfig, localPorts } from './local-app.ts';
import { openLocalState } from './local-state.ts';
import { sayLeftBehind } from './state-option.ts';

/** Without a config file the operator commands still read the local state: no routes, no approvers. */
const NO_CONFIG: ResponderConfig = {
  clusters: [],
  routes: [],
  schedules: [],
  limits: DEFAULT_LIMITS_CONFIG,
  approvers: {},
  slack: { command: DEFAULT_SLASH_COMMAND },
  runbooks: [],
};

/** The composition root over the local state, for operator commands (history, brake) run without a server. */
export async function withLocalApp<T>(
  configPath: string | undefined,
  work: (app: App) => Promise<T>,
): Promise<T> {
  const config = (await localConfig(configPath)) ?? NO_CONFIG;
  const state = sayLeftBehind(await openLocalState());
  try {
    return await work(createApp({ ...localPorts(config, state.store), queue: { send: async () => {} } }));
  } finally {
    await state.close();
  }
}
