import type { ResponderConfig, RouteConfig } from '../config/schema.ts';
import type { Mode } from '../engine/types.ts';
import { mergeParams } from '../params/merge.ts';
import type { Job } from '../queue/job.ts';
import type { Alert, Trigger } from '../triggers/types.ts';
import { alertCluster } from './alert-cluster.ts';

export interface RouteContext {
  config: ResponderConfig;
  /** Every runbook id, for `all`. */
  runbooks: readonly string[];
  newId: () => string;
}

export interface RouteResult {
  jobs: Job[];
  /** Resolved alerts: the (cluster, runbook) pairs whose records and threads say so; nothing runs. */
  resolved: Job[];
  /** Why parts of the trigger became no job, for the answer to the sender. */
  skipped: string[];
}

interface Target {
  cluster: string;
  runbook: string;
  mode: Mode;
  params: Record<string, unknown>;
  /** Who the target's own params come from (the cluster's config params are `config`'s). */
  by: string;
}

/** Who set each param: the cluster's config, overridden key by key by the route or the person; absent when none is set. */
function paramsBy(fromConfig: string[], fromTarget: string[], by: string): Pick<Job, 'paramsBy'> {
  if (fromConfig.length + fromTarget.length === 0) return {};
  const entries = [...fromConfig.map((key) => [key, 'config']), ...fromTarget.map((key) => [key, by])];
  return { paramsBy: Object.fromEntries(entries) };
}

/** The person who asked, as an approver would recognise them: a Slack mention, or the local user. */
function personOf(trigger: Trigger): string {
  return trigger.source === 'cli' ? (trigger.actor.name ?? trigger.actor.id) : `<@${trigger.actor.id}>`;
}

function includesAll(have: Record<string, string>, want: Record<string, string> | undefined): boolean {
  return Object.entries(want ?? {}).every(([key, value]) => have[key] === value);
}

function matches(route: RouteConfig, trigger: Trigger, alert: Alert): boolean {
  const { match } = route;
  if (match.source && match.source !== trigger.source) return false;
  if (match.alertname && ![match.alertname].flat().includes(alert.name)) return false;
  if (!includesAll(alert.labels, match.labels)) return false;
  if (match.alarmName && trigger.alarm?.name !== match.alarmName) return false;
  return includesAll(trigger.alarm?.dimensions ?? {}, match.dimensions);
}

function expandRunbook(runbook: string, context: RouteContext): string[] {
  return runbook === 'all' ? [...context.runbooks] : [runbook];
}

/** Alerts (Alertmanager group or CloudWatch alarm) → one target per (cluster, runbook) of the matching routes. */
function alertTargets(trigger: Trigger, context: RouteContext, skipped: string[]): Target[] {
  const targets: Target[] = [];
  for (const alert of trigger.alerts.filter((a) => a.status === trigger.status)) {
    const routes = context.config.routes.filter((route) => matches(route, trigger, alert));
    if (routes.length === 0) skipped.push(`${alert.name}: no route matches`);
    for (const route of routes) {
      const named = alert.labels.cluster ?? trigger.cluster ?? trigger.alarm?.dimensions.ClusterName;
      if (!route.cluster && !named) {
        const where = trigger.alarm ? 'a ClusterName dimension on the alarm' : 'a "cluster" label';
        skipped.push(`${alert.name}: no cluster (set the route's cluster or ${where})`);
        continue;
      }
      const found = route.cluster
        ? { cluster: route.cluster }
        : alertCluster(named as string, context.config, trigger.alarm?.region);
      if ('problem' in found) {
        skipped.push(`${alert.name}: ${found.problem}`);
        continue;
      }
      const { cluster } = found;
      for (const runbook of expandRunbook(route.runbook, context)) {
        targets.push({ cluster, runbook, mode: route.mode, params: route.params, by: 'route' });
      }
    }
  }
  return targets;
}

function commandTargets(trigger: Trigger, context: RouteContext, skipped: string[]): Target[] {
  if (!trigger.runbook || !trigger.cluster) {
    skipped.push('the command names no runbook or cluster');
    return [];
  }
  const { cluster } = trigger;
  // People get dry-run unless they ask for more.
  const mode = trigger.mode ?? 'dry-run';
  return expandRunbook(trigger.runbook, context).map((runbook) => ({
    cluster,
    runbook,
    mode,
    params: trigger.params ?? {},
    by: personOf(trigger),
  }));
}

function scheduleTargets(trigger: Trigger, context: RouteContext, skipped: string[]): Target[] {
  const schedule = context.config.schedules.find((s) => s.name === trigger.schedule?.name);
  if (!schedule) {
    skipped.push(`no schedule named "${trigger.schedule?.name}" in the config`);
    return [];
  }
  // The event may narrow the sweep to one cluster and runbook; otherwise the config's lists hold.
  const clusters = trigger.cluster
    ? [trigger.cluster]
    : (schedule.clusters ?? context.config.clusters.map((c) => c.name));
  const runbooks = (trigger.runbook ? [trigger.runbook] : (schedule.runbooks ?? ['all'])).flatMap((r) =>
    expandRunbook(r, context),
  );
  const mode = trigger.mode ?? schedule.mode;
  return clusters.flatMap((cluster) =>
    runbooks.map((runbook) => ({ cluster, runbook, mode, params: {}, by: 'schedule' })),
  );
}

function targetsOf(trigger: Trigger, context: RouteContext, skipped: string[]): Target[] {
  switch (trigger.source) {
    case 'alertmanager':
    case 'cloudwatch':
      return trigger.status ? alertTargets(trigger, context, skipped) : [];
    case 'slack-command':
    case 'cli':
      return commandTargets(trigger, context, skipped);
    case 'schedule':
      return scheduleTargets(trigger, context, skipped);
    case 'slack-action':
      // Approvals resume an existing run; admission builds that job from the run's record.
      return [];
  }
}

/**
 * Turns a trigger into jobs: one per (cluster, runbook), however many alerts of a group point
 * there, so one alert group never fans out into dozens of runs.
 */
export function routeTrigger(trigger: Trigger, context: RouteContext): RouteResult {
  const skipped: string[] = [];
  const known = new Set(context.config.clusters.map((c) => c.name));
  const unique = new Map<string, Target>();
  for (const target of targetsOf(trigger, context, skipped)) {
    if (!known.has(target.cluster)) {
      skipped.push(`cluster "${target.cluster}" is not in the config`);
      continue;
    }
    if (!context.runbooks.includes(target.runbook)) {
      skipped.push(`unknown runbook "${target.runbook}"`);
      continue;
    }
    const key = `${target.cluster}|${target.runbook}`;
    if (!unique.has(key)) unique.set(key, target);
  }
  const clusterParams = (target: Pick<Target, 'cluster' | 'runbook'>) =>
    context.config.clusters.find((c) => c.name === target.cluster)?.params[target.runbook];
  const jobs = [...unique.values()].map(
    ({ by, ...target }): Job => ({
      id: context.newId(),
      ...target,
      // The cluster's own settings first; what the route or the person asked for wins.
      params: mergeParams(clusterParams(target), target.params),
      ...paramsBy(Object.keys(clusterParams(target) ?? {}), Object.keys(target.params), by),
      trigger,
      dedupeKey: `${trigger.deliveryKey}|${target.cluster}|${target.runbook}`,
    }),
  );
  const resolved = trigger.status === 'resolved';
  return { jobs: resolved ? [] : jobs, resolved: resolved ? jobs : [], skipped: [...new Set(skipped)] };
}
