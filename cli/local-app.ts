import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { BUILT_IN_RUNBOOKS, loadConfigWithRunbooks, type RunbookSet } from '../runbooks/team.ts';
import { type AppPorts, DEFAULT_CHANNEL } from '../src/app/ports.ts';
import type { ChatSink } from '../src/chat/types.ts';
import { type ClusterConfig, ConfigSchema, type ResponderConfig } from '../src/config/schema.ts';
import { SILENT } from '../src/engine/run.ts';
import type { StateStore } from '../src/store/types.ts';
import type { Actor } from '../src/triggers/types.ts';
import { configHint } from './project-file.ts';

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
  return (await localSetup(path)).config;
}

/**
 * The config (as {@link localConfig} finds it) and the runbooks it can run: the built-in ones and
 * the team's own its `runbooks` names, loaded (TypeScript directly) and checked before anything runs.
 */
export async function localSetup(
  path: string | undefined,
): Promise<{ config: ResponderConfig | undefined; runbooks: RunbookSet }> {
  const file = path ?? DEFAULT_CONFIG;
  if (!path && !existsSync(file)) return { config: undefined, runbooks: BUILT_IN_RUNBOOKS };
  if (!existsSync(file)) throw new Error(`no config file ${file}: ${configHint(file)}`);
  return loadConfigWithRunbooks(file);
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
  runbooks: RunbookSet = BUILT_IN_RUNBOOKS,
): Omit<AppPorts, 'queue'> {
  return {
    config,
    runbookIds: runbooks.ids,
    runbookInfo: runbooks.catalog,
    store,
    chat,
    defaultChannel: DEFAULT_CHANNEL,
    now: () => new Date(),
    newId: randomUUID,
    log: SILENT,
  };
}
