/** The printers of nodes, events, DaemonSets, ReplicaSets, Deployments and PodDisruptionBudgets, as printers.go prints them. */

import { type LabelSelector, labelSelectorString } from '../../../src/cluster/label-selector.ts';
import type { KubeObject } from '../../objects.ts';
import {
  arr,
  containerCells,
  formatLabelSelector,
  formatLabels,
  int,
  intOrString,
  type Json,
  type PrintedRow,
  rec,
  since,
  str,
  timestamp,
} from './cells.ts';

export function nodeAddress(node: KubeObject, type: string): string {
  const found = arr(rec(node.status).addresses).find((address) => address.type === type);
  return found ? str(found.address) : '<none>';
}

/** findNodeRoles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values, sorted. */
export function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/')) {
      const role = key.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (key === 'kubernetes.io/role' && value) roles.add(value);
  }
  return [...roles].sort().join(',') || '<none>';
}

export function printNode(node: KubeObject, now: Date): PrintedRow {
  const status = rec(node.status);
  const info = rec(status.nodeInfo);
  // The printer indexes conditions by type, so a repeated type counts by its last entry.
  const ready = arr(status.conditions).findLast((condition) => condition.type === 'Ready');
  const states = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (rec(node.spec).unschedulable === true) states.push('SchedulingDisabled');
  return {
    cells: [
      node.metadata.name,
      states.join(','),
      nodeRoles(node),
      since(node.metadata.creationTimestamp, now),
      str(info.kubeletVersion),
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Events: printEvent.

export function printEvent(event: KubeObject, now: Date): PrintedRow {
  const series = event.series === undefined ? undefined : rec(event.series);
  const first =
    timestamp(event.firstTimestamp) === undefined
      ? since(event.eventTime, now)
      : since(event.firstTimestamp, now);
  let last = timestamp(event.lastTimestamp) === undefined ? first : since(event.lastTimestamp, now);
  let count = int(event.count);
  if (series) {
    last = since(series.lastObservedTime, now);
    count = int(series.count);
  } else if (count === 0) {
    // Events from events.k8s.io/v1 are singletons without a count.
    count = 1;
  }
  const involved = rec(event.involvedObject);
  const kind = str(involved.kind).toLowerCase();
  const source = rec(event.source);
  const component = str(source.component) || str(event.reportingComponent);
  const instance = str(source.host) || str(event.reportingInstance);
  return {
    cells: [
      last,
      str(event.type),
      str(event.reason),
      str(involved.name) ? `${kind}/${str(involved.name)}` : kind,
      str(involved.fieldPath),
      instance ? `${component}, ${instance}` : component,
      str(event.message).trim(),
      first,
      count,
      event.metadata.name,
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Workloads and the rest.

export function printDaemonSet(ds: KubeObject, now: Date): PrintedRow {
  const spec = rec(ds.spec);
  const status = rec(ds.status);
  const template = rec(spec.template);
  return {
    cells: [
      ds.metadata.name,
      int(status.desiredNumberScheduled),
      int(status.currentNumberScheduled),
      int(status.numberReady),
      int(status.updatedNumberScheduled),
      int(status.numberAvailable),
      formatLabels(rec(template.spec).nodeSelector),
      since(ds.metadata.creationTimestamp, now),
      ...containerCells(template),
      formatLabelSelector(spec.selector),
    ],
  };
}

/** The API defaults an absent replicas to 1 before the printer sees it. */
export const desiredReplicas = (spec: Json) =>
  typeof spec.replicas === 'number' ? Math.trunc(spec.replicas) : 1;

export function printReplicaSet(rs: KubeObject, now: Date): PrintedRow {
  const spec = rec(rs.spec);
  const status = rec(rs.status);
  return {
    cells: [
      rs.metadata.name,
      desiredReplicas(spec),
      int(status.replicas),
      int(status.readyReplicas),
      since(rs.metadata.creationTimestamp, now),
      ...containerCells(spec.template),
      formatLabelSelector(spec.selector),
    ],
  };
}

export function printDeployment(deployment: KubeObject, now: Date): PrintedRow {
  const spec = rec(deployment.spec);
  const status = rec(deployment.status);
  const selector = labelSelectorString(spec.selector as LabelSelector | undefined);
  return {
    cells: [
      deployment.metadata.name,
      `${int(status.readyReplicas)}/${desiredReplicas(spec)}`,
      int(status.updatedReplicas),
      int(status.availableReplicas),
      since(deployment.metadata.creationTimestamp, now),
      ...containerCells(spec.template),
      selector ?? '<invalid>',
    ],
  };
}

export function printPodDisruptionBudget(pdb: KubeObject, now: Date): PrintedRow {
  const spec = rec(pdb.spec);
  return {
    cells: [
      pdb.metadata.name,
      spec.minAvailable === undefined ? 'N/A' : intOrString(spec.minAvailable),
      spec.maxUnavailable === undefined ? 'N/A' : intOrString(spec.maxUnavailable),
      int(rec(pdb.status).disruptionsAllowed),
      since(pdb.metadata.creationTimestamp, now),
    ],
  };
}
