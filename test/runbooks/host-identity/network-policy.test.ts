import { describe, expect, it } from 'vitest';
import { policyView, restrictingPolicies } from '../../../runbooks/host-identity/network-policy.ts';

function policy(name: string, spec: Record<string, unknown>) {
  return policyView({ metadata: { name, namespace: 'billing', uid: `uid-${name}` }, spec });
}

const FROM_GATEWAY = {
  from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'gateway' } } }],
  ports: [{ protocol: 'TCP', port: 8080 }],
};

describe('NetworkPolicies that can drop probes', () => {
  it.each([
    [
      'Ingress with a narrow rule',
      { podSelector: {}, policyTypes: ['Ingress'], ingress: [FROM_GATEWAY] },
      true,
    ],
    ['deny-all ingress', { podSelector: {}, policyTypes: ['Ingress'] }, true],
    ['no policyTypes (Ingress implied)', { podSelector: {}, ingress: [FROM_GATEWAY] }, true],
    ['Egress only', { podSelector: {}, policyTypes: ['Egress'], egress: [{}] }, false],
    [
      'an allow-all ingress rule',
      { podSelector: {}, policyTypes: ['Ingress'], ingress: [FROM_GATEWAY, {}] },
      false,
    ],
  ])('%s restricts ingress: %s', (_name, spec, restricts) => {
    expect(policy('p', spec).restrictsIngress).toBe(restricts);
  });

  it('names the restricting policies whose pod selector matches the labels', () => {
    const policies = [
      policy('allow-from-gateway', {
        podSelector: { matchLabels: { app: 'invoice-api' } },
        policyTypes: ['Ingress'],
        ingress: [FROM_GATEWAY],
      }),
      policy('default-deny', { podSelector: {}, policyTypes: ['Ingress'] }),
      policy('egress-only', { podSelector: {}, policyTypes: ['Egress'] }),
      policy('other-app', {
        podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['ledger'] }] },
      }),
    ];
    expect(restrictingPolicies(policies, { app: 'invoice-api' })).toEqual([
      'allow-from-gateway',
      'default-deny',
    ]);
    expect(restrictingPolicies(policies, { app: 'ledger' })).toEqual(['default-deny', 'other-app']);
  });
});
