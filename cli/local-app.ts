import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { RUNBOOK_CATALOG, RUNBOOK_IDS } from '../runbooks/catalog.ts';
import { type AppPorts, DEFAULT_CHANNEL } from '../src/app/ports.ts';
import type { ChatSink } from '../src/chat/types.ts';
import { loadConfig } from '../src/config/load.ts';
import { type ClusterConfig, ConfigSchema, type ResponderConfig } from '../src/config/schema.ts';
import { SILENT } from '../src/engine/run.ts';
import type { StateStore } from '../src/store/types.ts';
import type { Actor } from '../src/triggers/types.ts';

/** The config file every command reads unless told otherwise. */
export const DEFAULT_CONFIG = process.env.RESPONDER_CONFIG ?? 'responder.config.yaml';

/** The person at the terminal: the authority behind a local run. */
export function localUser(): Actor {
  const name = userInfo().username;
  return { kind: 'user', id: `local:${name}`, name };
}

/** The CLI prints its own reports; nothing else needs them. */
export const TERMINAL_ONLY: ChatSink = {
  postReport: async () => ({}),
  postText: async () => ({}),
};

/**
 * The config a local command works with: the file when it exists (its limits, exclusions and
 * brake apply to local runs too); the defaults when the file is missing and was not asked for by
 * name, so `--sim` and `--kubeconfig` work on a fresh clone.
 */
export async function localConfig(path: string | undefined): Promise<ResponderConfig | undefined> {
  const file = path ?? DEFAULT_CONFIG;
  if (!path && !existsSync(file)) return undefined;
  if (!existsSync(file))
    throw new Error(`no config file ${file}: copy responder.config.example.yaml to ${file} and edit it`);
  return loadConfig(file, { runbooks: RUNBOOK_IDS });
}

/** The config with `cluster` in it (replacing one of the same name): a cluster named on the command line. */
export function withCluster(config: ResponderConfig | undefined, cluster: unknown): ResponderConfig {
  const others = (config?.clusters ?? []).filter((c) => c.name !== (cluster as ClusterConfig).name);
  return ConfigSchema.parse({ ...config, clusters: [cluster, ...others] });
}

/** Ports for a command that runs in this process. */
export function localPorts(
  config: ResponderConfig,
  store: StateStore,
  chat: ChatSink = TERMINAL_ONLY,
): Omit<AppPorts, 'queue'> {
  return {
    config,
    runbookIds: RUNBOOK_IDS,
    runbookInfo: RUNBOOK_CATALOG,
    store,
    chat,
    defaultChannel: DEFAULT_CHANNEL,
    now: () => new Date(),
    newId: randomUUID,
    log: SILENT,
  };
}
