import { describe, expect, it } from 'vitest';
import {
  AGENT_NOT_READY_TAINT,
  type AgentHealth,
  AWS_NODE_SELECTOR,
  exclusions,
  holdFor,
} from '../../../src/engine/exclusions.ts';
import type { PodFacts } from '../../../src/engine/pod-facts.ts';

const NODE = 'ip-10-0-1-23.us-west-2.compute.internal';

/** A pod the responder may restart: on a node with a ready agent, owned by a ReplicaSet. */
function pod(overrides: Partial<PodFacts> = {}): PodFacts {
  return {
    namespace: 'shop',
    name: 'web-1',
    uid: 'uid-web-1',
    node: NODE,
    labels: { app: 'web' },
    hostNetwork: false,
    terminating: false,
    mirror: false,
    owner: { kind: 'ReplicaSet', name: 'web-5d4f', uid: 'uid-rs' },
    ...overrides,
  };
}

function agents(options: { ready?: Record<string, boolean>; tainted?: string[] } = {}): AgentHealth {
  return {
    agentReady: new Map(Object.entries(options.ready ?? { [NODE]: true })),
    tainted: new Set(options.tainted ?? []),
  };
}

const none = exclusions([]);

describe('holdFor', () => {
  it('lets a controller-owned pod on a node with a ready agent go', () => {
    expect(holdFor(pod(), agents(), none)).toBeUndefined();
  });

  it('always holds aws-node, by k8s-app=aws-node, even without any configured selector', () => {
    expect(AWS_NODE_SELECTOR).toBe('k8s-app=aws-node');
    expect(holdFor(pod({ labels: { 'k8s-app': 'aws-node' } }), agents(), none)).toEqual({
      kind: 'excluded',
      selector: 'k8s-app=aws-node',
    });
    // Only that label value: another k8s-app is not aws-node.
    expect(holdFor(pod({ labels: { 'k8s-app': 'kube-dns' } }), agents(), none)).toBeUndefined();
  });

  it('holds pods a configured selector matches, naming the selector', () => {
    const configured = exclusions(['team in (payments,ledger)', 'critical']);
    expect(holdFor(pod({ labels: { team: 'ledger' } }), agents(), configured)).toEqual({
      kind: 'excluded',
      selector: 'team in (payments,ledger)',
    });
    expect(holdFor(pod({ labels: { critical: 'yes' } }), agents(), configured)).toEqual({
      kind: 'excluded',
      selector: 'critical',
    });
    expect(holdFor(pod({ labels: { team: 'shop' } }), agents(), configured)).toBeUndefined();
  });

  it('holds hostNetwork pods', () => {
    expect(holdFor(pod({ hostNetwork: true }), agents(), none)).toEqual({ kind: 'host-network' });
  });

  it('holds mirror (static) pods', () => {
    expect(holdFor(pod({ mirror: true }), agents(), none)).toEqual({ kind: 'mirror' });
  });

  it('holds pods on a node that still has the agent-not-ready taint, even if the agent reports ready', () => {
    expect(AGENT_NOT_READY_TAINT).toBe('node.cilium.io/agent-not-ready');
    expect(holdFor(pod(), agents({ tainted: [NODE] }), none)).toEqual({
      kind: 'agent-not-ready',
      node: NODE,
      cause: 'taint',
    });
  });

  it('holds pods on a node whose agent is not ready', () => {
    expect(holdFor(pod(), agents({ ready: { [NODE]: false } }), none)).toEqual({
      kind: 'agent-not-ready',
      node: NODE,
      cause: 'not-ready',
    });
  });

  it('holds pods on a node without an agent pod', () => {
    expect(holdFor(pod(), agents({ ready: { 'some-other-node': true } }), none)).toEqual({
      kind: 'agent-not-ready',
      node: NODE,
      cause: 'missing',
    });
  });

  it('holds pods no controller owns (nothing would recreate them)', () => {
    expect(holdFor(pod({ owner: undefined }), agents(), none)).toEqual({ kind: 'no-controller' });
  });

  describe('precedence: the first rule that applies is the reason given', () => {
    const everything = pod({
      labels: { 'k8s-app': 'aws-node', team: 'payments' },
      hostNetwork: true,
      mirror: true,
      owner: undefined,
    });
    const worstNode = agents({ ready: { [NODE]: false }, tainted: [NODE] });

    it('selectors (aws-node first, then configured, in order) before everything else', () => {
      expect(holdFor(everything, worstNode, exclusions(['team=payments']))).toEqual({
        kind: 'excluded',
        selector: 'k8s-app=aws-node',
      });
      const notAwsNode = { ...everything, labels: { team: 'payments' } };
      expect(holdFor(notAwsNode, worstNode, exclusions(['app=none', 'team=payments']))).toEqual({
        kind: 'excluded',
        selector: 'team=payments',
      });
    });

    it('then hostNetwork, then mirror, then the taint, then agent readiness, then the controller', () => {
      const unlabelled = { ...everything, labels: {} };
      expect(holdFor(unlabelled, worstNode, none)).toEqual({ kind: 'host-network' });
      expect(holdFor({ ...unlabelled, hostNetwork: false }, worstNode, none)).toEqual({ kind: 'mirror' });
      const plain = { ...unlabelled, hostNetwork: false, mirror: false };
      expect(holdFor(plain, worstNode, none)).toEqual({
        kind: 'agent-not-ready',
        node: NODE,
        cause: 'taint',
      });
      expect(holdFor(plain, agents({ ready: { [NODE]: false } }), none)).toEqual({
        kind: 'agent-not-ready',
        node: NODE,
        cause: 'not-ready',
      });
      expect(holdFor(plain, agents({ ready: {} }), none)).toEqual({
        kind: 'agent-not-ready',
        node: NODE,
        cause: 'missing',
      });
      expect(holdFor(plain, agents(), none)).toEqual({ kind: 'no-controller' });
    });
  });
});

describe('exclusions', () => {
  it('always starts with aws-node, then the configured selectors in order', () => {
    expect(exclusions(['team=payments', 'tier notin (web)']).map((e) => e.selector)).toEqual([
      'k8s-app=aws-node',
      'team=payments',
      'tier notin (web)',
    ]);
  });

  it('parses the selectors with Kubernetes semantics', () => {
    const [, notWeb] = exclusions(['tier notin (web)']);
    expect(notWeb?.matches({ tier: 'db' })).toBe(true);
    expect(notWeb?.matches({ tier: 'web' })).toBe(false);
    expect(notWeb?.matches({})).toBe(true);
  });

  it('rejects an invalid selector with an error that names it', () => {
    expect(() => exclusions(['team=payments', 'app in (a'])).toThrow(
      /^invalid exclude selector "app in \(a": /,
    );
    expect(() => exclusions(['==='])).toThrow('invalid exclude selector "==="');
  });
});
