/** The pod printer: printPod of pkg/printers/internalversion/printers.go (status reason, restarts, readiness gates). */

import type { KubeObject } from '../../objects.ts';
import { arr, humanDuration, int, type Json, type PrintedRow, rec, since, str, timestamp } from './cells.ts';
import type { TableRowCondition } from './types.ts';

export const POD_SUCCEEDED: TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
];
export const POD_FAILED: TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
];

/** When the container last terminated, for "N (5m ago)" restarts; -Infinity is Go's zero time. */
export function lastTerminated(status: Json): number {
  return timestamp(rec(rec(status.lastState).terminated).finishedAt) ?? Number.NEGATIVE_INFINITY;
}

export function terminatedReason(terminated: Json, prefix: string): string {
  if (str(terminated.reason)) return `${prefix}${str(terminated.reason)}`;
  const signal = int(terminated.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${int(terminated.exitCode)}`;
}

export function firstConditionStatus(conditions: Json[], type: string): string | undefined {
  const found = conditions.find((condition) => condition.type === type);
  return found ? str(found.status) : undefined;
}

export function printPod(pod: KubeObject, now: Date): PrintedRow {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const phase = str(status.phase);
  const conditions = arr(status.conditions);
  let reason = str(status.reason) || phase;
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';

  const initContainers = arr(spec.initContainers);
  // Restartable init containers are sidecars: they count towards READY and their restarts show.
  const sidecars = new Set(
    initContainers.filter((c) => c.restartPolicy === 'Always').map((c) => str(c.name)),
  );
  const total = arr(spec.containers).length + sidecars.size;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = Number.NEGATIVE_INFINITY;
  let lastSidecarRestart = Number.NEGATIVE_INFINITY;
  let initializing = false;

  const initStatuses = arr(status.initContainerStatuses);
  for (const [i, container] of initStatuses.entries()) {
    const isSidecar = sidecars.has(str(container.name));
    restarts += int(container.restartCount);
    lastRestart = Math.max(lastRestart, lastTerminated(container));
    if (isSidecar) {
      sidecarRestarts += int(container.restartCount);
      lastSidecarRestart = Math.max(lastSidecarRestart, lastTerminated(container));
    }
    const state = rec(container.state);
    const terminated = state.terminated ? rec(state.terminated) : undefined;
    const waitingReason = str(rec(state.waiting).reason);
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (isSidecar && container.started === true) {
      if (container.ready === true) ready++;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waitingReason && waitingReason !== 'PodInitializing') reason = `Init:${waitingReason}`;
    else reason = `Init:${i}/${initContainers.length}`;
    initializing = true;
    break;
  }

  if (!initializing || firstConditionStatus(conditions, 'Initialized') === 'True') {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    for (const container of arr(status.containerStatuses).reverse()) {
      restarts += int(container.restartCount);
      lastRestart = Math.max(lastRestart, lastTerminated(container));
      const state = rec(container.state);
      const waitingReason = str(rec(state.waiting).reason);
      const terminated = state.terminated ? rec(state.terminated) : undefined;
      if (waitingReason) reason = waitingReason;
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (container.ready === true && state.running) {
        hasRunning = true;
        ready++;
      }
    }
    // A completed container beside a running one: the pod is still up.
    if (reason === 'Completed' && hasRunning) {
      reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }

  const deleting = pod.metadata.deletionTimestamp !== undefined;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  const restartsCell =
    restarts !== 0 && lastRestart !== Number.NEGATIVE_INFINITY
      ? `${restarts} (${humanDuration(now.getTime() - lastRestart)} ago)`
      : String(restarts);

  const gates = arr(spec.readinessGates);
  const passedGates = gates.filter(
    (gate) => firstConditionStatus(conditions, str(gate.conditionType)) === 'True',
  );
  // The internal type keeps only podIPs; conversion fills it from podIP when absent.
  const podIP = str(arr(status.podIPs)[0]?.ip) || str(status.podIP);

  return {
    cells: [
      pod.metadata.name,
      `${ready}/${total}`,
      reason,
      restartsCell,
      since(pod.metadata.creationTimestamp, now),
      podIP || '<none>',
      str(spec.nodeName) || '<none>',
      str(status.nominatedNodeName) || '<none>',
      gates.length > 0 ? `${passedGates.length}/${gates.length}` : '<none>',
    ],
    ...(phase === 'Succeeded'
      ? { conditions: POD_SUCCEEDED }
      : phase === 'Failed'
        ? { conditions: POD_FAILED }
        : {}),
  };
}
