import { isApprover } from '../routing/approval.ts';
import type { Dispatched } from '../routing/dispatch.ts';
import { dispatchTrigger } from '../routing/dispatch.ts';
import { runCursor } from '../store/run-order.ts';
import type { BrakeState, RunRecord } from '../store/types.ts';
import type { Actor, Trigger, TriggerSource } from '../triggers/types.ts';
import { type HistoryQuery, parseHistoryQuery } from './history-query.ts';
import type { AppPorts } from './ports.ts';
import { UnknownNameError } from './unknown-name.ts';

export type { HistoryQuery } from './history-query.ts';

/** A page of the audit trail, newest first; `next` (opaque) asks for the page after it. */
export interface HistoryPage {
  runs: RunRecord[];
  next?: string;
}

/** Who asks for an operator action, and through which source: the authority it needs follows. */
export interface Requester {
  source: TriggerSource;
  actor: Actor;
}

export type BrakeReset = { reset: true } | { reset: false; refusal: string };

/**
 * The responder's operations, the same for every entry: admit a trigger (route, authority,
 * dedupe, audit record, queue), read the audit trail, look at and reset the brake. Nothing here
 * needs a cluster, so the functions that only answer (http, alarm, sweep) carry no cluster client.
 */
export interface App {
  readonly ports: AppPorts;
  dispatch(trigger: Trigger): Promise<Dispatched>;
  /** Throws a TriggerError naming a bad field, an UnknownNameError for a cluster or runbook never seen. */
  history(query?: HistoryQuery): Promise<HistoryPage>;
  brakeState(cluster: string): Promise<BrakeState>;
  resetBrake(cluster: string, by: Requester): Promise<BrakeReset>;
}

/** How far back the run history is read for the clusters an unknown name is told about. */
const RECENT_RUNS = 200;

export function createApp(ports: AppPorts): App {
  const { config, store } = ports;
  const known = config.clusters.map((c) => c.name);
  // A cluster named on the command line (`run --sim`, `--kubeconfig`) is in no config file, but
  // its runs are in the audit trail, and so is its brake.
  const checkCluster = async (cluster: string) => {
    if (known.includes(cluster) || (await store.runs.list({ cluster, limit: 1 })).length > 0) return;
    const recent = (await store.runs.list({ limit: RECENT_RUNS })).map((run) => run.cluster);
    throw new UnknownNameError('cluster', cluster, [...new Set([...known, ...recent])]);
  };
  // A runbook no longer in the config still has its runs in the audit trail.
  const checkRunbook = async (runbook: string) => {
    if (ports.runbookIds.includes(runbook)) return;
    const recent = (await store.runs.list({ limit: RECENT_RUNS })).map((run) => run.runbook);
    if (!recent.includes(runbook))
      throw new UnknownNameError('runbook', runbook, [...new Set([...ports.runbookIds, ...recent])]);
  };
  return {
    ports,
    dispatch: (trigger) =>
      dispatchTrigger(trigger, {
        config,
        store,
        queue: ports.queue,
        chat: ports.chat,
        defaultChannel: ports.defaultChannel,
        runbooks: ports.runbookIds,
        now: ports.now,
        newId: ports.newId,
        ...(ports.directory ? { directory: ports.directory } : {}),
        runbookInfo: ports.runbookInfo,
      }),
    history: async (query = {}) => {
      const page = await store.runs.page(parseHistoryQuery(query, ports.now()));
      if (page.runs.length === 0 && query.cluster) await checkCluster(query.cluster);
      if (page.runs.length === 0 && query.runbook) await checkRunbook(query.runbook);
      return { runs: page.runs, ...(page.next === undefined ? {} : { next: runCursor(page.next) }) };
    },
    brakeState: async (cluster) => {
      await checkCluster(cluster);
      const { maxWrites, windowMinutes } = config.limits.brake;
      return store.brake.state(cluster, maxWrites, windowMinutes * 60, ports.now());
    },
    resetBrake: async (cluster, by) => {
      await checkCluster(cluster);
      // In Slack anyone in the channel can type the command; only approvers may lift the brake.
      const fromChat = by.source === 'slack-command' || by.source === 'slack-action';
      if (fromChat && !(await isApprover(config, by.actor.id, undefined, ports.directory)))
        return { reset: false, refusal: `<@${by.actor.id}> is not an approver: ask one to reset the brake.` };
      await store.brake.reset(cluster);
      ports.log.info('brake reset', { cluster, by: by.actor.name ?? by.actor.id, source: by.source });
      return { reset: true };
    },
  };
}
