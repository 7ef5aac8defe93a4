/** metav1.LabelSelector and its matching, as `metav1.LabelSelectorAsSelector` does it. */
export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

function requirementMatches(requirement: LabelSelectorRequirement, labels: Record<string, string>): boolean {
  const { key, operator, values = [] } = requirement;
  const has = Object.hasOwn(labels, key);
  switch (operator) {
    case 'In':
      return values.length > 0 && has && values.includes(labels[key] as string);
    case 'NotIn':
      return values.length > 0 && (!has || !values.includes(labels[key] as string));
    case 'Exists':
      return values.length === 0 && has;
    case 'DoesNotExist':
      return values.length === 0 && !has;
    default:
      // An unknown operator makes the selector invalid, and an invalid selector matches nothing.
      return false;
  }
}

/**
 * Whether `labels` satisfy `selector`. A missing (nil) selector matches nothing and an empty one
 * (`{}`) matches everything, as in kube-apiserver; an invalid requirement matches nothing.
 */
export function selectorMatches(
  selector: LabelSelector | null | undefined,
  labels: Record<string, string> = {},
): boolean {
  if (!selector) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((requirement) => requirementMatches(requirement, labels));
}
