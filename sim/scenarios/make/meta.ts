import type { KubeObject, OwnerReference } from '../../objects.ts';

/** RFC 3339 at second precision, as kube-apiserver writes metav1.Time. */
export function isoTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The controller reference a ReplicaSet, DaemonSet or Deployment puts on what it creates. */
export function controllerRef(owner: KubeObject): OwnerReference {
  return Object.freeze({
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  });
}

/** The object's controller (the owner reference marked `controller: true`), if any. */
export function controllerOf(object: KubeObject): OwnerReference | undefined {
  return object.metadata.ownerReferences?.find((ref) => ref.controller === true);
}
