import { R } from '../../cluster.ts';
import type { KubeObject } from '../../objects.ts';
import type { Store } from '../../store.ts';
import { isoTime } from './meta.ts';

export interface EventInput {
  /** The object the event is about. */
  about: KubeObject;
  /** e.g. `spec.containers{app}` for container events. */
  fieldPath?: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** The recorder: `kubelet` (with the node as host), `replicaset-controller`, `default-scheduler`... */
  component: string;
  host?: string;
  /** Repeated events are folded into one with a count, as client-go's correlator does. */
  count?: number;
  first: Date;
  last?: Date;
}

/**
 * Records a core/v1 Event the way client-go's recorder writes it: named `<object>.<unix nanos in
 * hex>`, in the object's namespace (`default` for cluster-scoped objects).
 */
export function recordEvent(store: Store, input: EventInput): KubeObject {
  const { about } = input;
  const namespace = about.metadata.namespace ?? 'default';
  let nanos = BigInt(input.first.getTime()) * 1_000_000n;
  let name = `${about.metadata.name}.${nanos.toString(16)}`;
  while (store.get(R.events, namespace, name)) name = `${about.metadata.name}.${(++nanos).toString(16)}`;
  return store.create(R.events, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace, creationTimestamp: isoTime(input.first) },
    involvedObject: {
      apiVersion: about.apiVersion,
      kind: about.kind,
      name: about.metadata.name,
      ...(about.metadata.namespace ? { namespace: about.metadata.namespace } : {}),
      uid: about.metadata.uid,
      ...(about.metadata.resourceVersion ? { resourceVersion: about.metadata.resourceVersion } : {}),
      ...(input.fieldPath ? { fieldPath: input.fieldPath } : {}),
    },
    reason: input.reason,
    message: input.message,
    type: input.type,
    source: { component: input.component, ...(input.host ? { host: input.host } : {}) },
    firstTimestamp: isoTime(input.first),
    lastTimestamp: isoTime(input.last ?? input.first),
    count: input.count ?? 1,
    eventTime: null,
    reportingComponent: input.component,
    reportingInstance: input.host ?? '',
  });
}
