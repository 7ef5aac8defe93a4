import { type KubeObject, type LabelSelector, matchLabelSelectorObject } from '../../sdk/index.ts';

/** The parts of a NetworkPolicy that decide whether it can drop a probe to a pod. */
export interface PolicyView {
  name: string;
  podSelector: LabelSelector;
  /** Ingress is in its effective policyTypes and no rule admits every source on every port. */
  restrictsIngress: boolean;
}

interface PolicySpec {
  podSelector?: LabelSelector;
  policyTypes?: string[];
  ingress?: { from?: unknown[]; ports?: unknown[] }[];
}

/**
 * A NetworkPolicy as the probe check sees it. Without policyTypes, Ingress always applies
 * (networking/v1); an ingress rule with neither `from` nor `ports` admits everything.
 */
export function policyView(object: KubeObject): PolicyView {
  const spec = (object.spec ?? {}) as PolicySpec;
  const ingressApplies = spec.policyTypes === undefined || spec.policyTypes.includes('Ingress');
  const admitsAll = (spec.ingress ?? []).some((rule) => !rule.from?.length && !rule.ports?.length);
  return {
    name: object.metadata.name,
    podSelector: spec.podSelector ?? {},
    restrictsIngress: ingressApplies && !admitsAll,
  };
}

/** Names of the policies (of the pod's namespace) that restrict ingress to a pod with these labels. */
export function restrictingPolicies(
  policies: readonly PolicyView[],
  labels: Record<string, string>,
): string[] {
  return policies
    .filter((policy) => policy.restrictsIngress && matchLabelSelectorObject(policy.podSelector, labels))
    .map((policy) => policy.name);
}
