import { describe, expect, it } from 'vitest';
import { explainHold } from '../../../runbooks/unmanaged-pods/hold.ts';
import { type AgentHealth, exclusions, holdFor } from '../../../src/engine/exclusions.ts';
import { facts } from './fixtures.ts';

const HEALTHY: AgentHealth = { agentReady: new Map([['node-1', true]]), tainted: new Set() };
const AWS_NODE_ONLY = exclusions([]);

describe('holdFor', () => {
  it('lets a controller-owned pod on a node with a ready agent be restarted', () => {
    expect(holdFor(facts(), HEALTHY, AWS_NODE_ONLY)).toBeUndefined();
  });

  it('never restarts aws-node, nor pods of a configured selector', () => {
    expect(holdFor(facts({ labels: { 'k8s-app': 'aws-node' } }), HEALTHY, AWS_NODE_ONLY)).toEqual({
      kind: 'excluded',
      selector: 'k8s-app=aws-node',
    });
    expect(holdFor(facts({ labels: { tier: 'db' } }), HEALTHY, exclusions(['tier in (db,cache)']))).toEqual({
      kind: 'excluded',
      selector: 'tier in (db,cache)',
    });
  });

  it('leaves mirror pods to their node', () => {
    expect(holdFor(facts({ mirror: true }), HEALTHY, AWS_NODE_ONLY)).toEqual({ kind: 'mirror' });
  });

  it('leaves pods alone where the agent is the problem: tainted, not ready or missing', () => {
    const node = 'node-1';
    expect(
      holdFor(facts(), { agentReady: new Map([[node, true]]), tainted: new Set([node]) }, AWS_NODE_ONLY),
    ).toEqual({
      kind: 'agent-not-ready',
      node,
      cause: 'taint',
    });
    expect(
      holdFor(facts(), { agentReady: new Map([[node, false]]), tainted: new Set() }, AWS_NODE_ONLY),
    ).toMatchObject({
      cause: 'not-ready',
    });
    expect(holdFor(facts(), { agentReady: new Map(), tainted: new Set() }, AWS_NODE_ONLY)).toMatchObject({
      cause: 'missing',
    });
  });

  it('does not evict a pod nothing would recreate', () => {
    expect(holdFor(facts({ owner: undefined }), HEALTHY, AWS_NODE_ONLY)).toEqual({ kind: 'no-controller' });
  });
});

describe('exclusions', () => {
  it('names a configured selector that does not parse', () => {
    expect(() => exclusions(['tier in ('])).toThrow(/^invalid exclude selector "tier in \(": /);
  });
});

describe('explainHold', () => {
  it('gives a reason and a command a person can run', () => {
    const pod = facts();
    const { reason, fix } = explainHold(
      { kind: 'agent-not-ready', node: 'node-1', cause: 'taint' },
      pod,
      'kube-system',
    );
    expect(reason).toBe(
      'node node-1 still has the node.cilium.io/agent-not-ready taint; a restart there would not help',
    );
    expect(fix).toContain(
      'kubectl -n kube-system get pods -l k8s-app=cilium --field-selector spec.nodeName=node-1',
    );
    expect(fix).toContain('kubectl -n shop delete pod web-1');
  });
});
