import { describe, expect, it } from 'vitest';
import {
  AgentTally,
  CAUSES_KEPT,
  emptyTally,
  FLAGGED_KEPT,
  NAMED_PER_CAUSE,
  OTHER_CAUSES,
} from '../../../runbooks/cgroup-root-hooks/agent-tally.ts';
import type { Flagged } from '../../../runbooks/cgroup-root-hooks/judgements.ts';
import { HEALTHY } from '../../../runbooks/cgroup-root-hooks/judgements.ts';
import { KubeError } from '../../../src/cluster/types.ts';
import { AGENT } from './agent-fixture.ts';

const AGENTS = 20_000;
const node = (index: number) => `node-${String(index).padStart(5, '0')}`;
const agent = (index: number) => ({ ...AGENT, node: node(index), name: `cilium-${index}` });

function flagged(index: number, severity: 'critical' | 'info'): Flagged {
  const target = node(index);
  return {
    node: target,
    findings: [
      { code: 'HOOKS_NOT_ON_ROOT', target, severity, message: `${target} misplaced`, fix: 'move them' },
    ],
    evidence: { source: target, text: 'bpftool cgroup tree '.repeat(20) },
  };
}

/** Every agent in an order other than theirs, as 16 runners finish them. */
function shuffled(count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let i = count - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/**
 * A cluster of 20,000 agents where, by index: one in two is misplaced, one in ten only noted, one
 * in five forbidden alike, the 11th of every 50 failing its own way; the rest are healthy.
 */
function tallied(tally = new AgentTally()) {
  for (const index of shuffled(AGENTS)) {
    if (index % 50 === 11)
      tally.failed(agent(index), new Error(`bpftool cgroup tree, line ${index}: odd`), index);
    else if (index % 5 === 4)
      tally.failed(
        agent(index),
        new KubeError('forbidden', 'create', 'pods/exec', `cilium-${index}`, 403),
        index,
      );
    else if (index % 2 === 0) tally.judged(flagged(index, 'critical'), index);
    else if (index % 10 === 1) tally.judged(flagged(index, 'info'), index);
    else tally.judged(HEALTHY, index);
  }
  return tally;
}

describe('AgentTally: what the report and the checkpoint keep of 20,000 agents', () => {
  const tally = tallied();
  const found = tally.after(emptyTally(), ['done-node'], undefined);

  it('counts every flagged agent and keeps the findings of the first hundred of each kind, in order', () => {
    const misplaced = Array.from({ length: AGENTS }, (_, index) => index).filter(
      (index) => index % 2 === 0 && index % 5 !== 4 && index % 50 !== 11,
    );
    expect(found.misplaced.count).toBe(misplaced.length);
    expect(found.misplaced.first.map((judged) => judged.node)).toEqual(
      misplaced.slice(0, FLAGGED_KEPT).map(node),
    );
    expect(found.noted.count).toBe(1_600);
    expect(found.noted.first).toHaveLength(FLAGGED_KEPT);
    expect(found.noted.first[0]?.node).toBe(node(1));
  });

  it('counts failed agents by cause, naming the first few of each, the most common causes apart', () => {
    expect(tally.failures).toBe(4_000 + 400);
    const forbidden = found.failed.find((group) => group.cause === 'forbidden: create pods/exec');
    expect(forbidden?.count).toBe(4_000);
    expect(forbidden?.first.map((failed) => failed.node)).toEqual([node(4), node(9), node(14)]);
    expect(forbidden?.first[0]?.message).toBe('forbidden: create pods/exec (cilium-4)');
    expect(found.failed).toHaveLength(CAUSES_KEPT + 1);
    expect(found.failed.at(-1)?.cause).toBe(OTHER_CAUSES);
    expect(found.failed.reduce((sum, group) => sum + group.count, 0)).toBe(4_400);
    for (const group of found.failed) expect(group.first.length).toBeLessThanOrEqual(NAMED_PER_CAUSE);
  });

  it('is plain data, a few hundred entries whatever the cluster, beside the nodes done', () => {
    expect(JSON.parse(JSON.stringify(found))).toEqual(found);
    const { done, ...rest } = found;
    expect(done).toEqual(['done-node']);
    // 200 flagged agents' findings and evidence, a few failed ones: about 170 KB, not 20,000 agents'.
    expect(JSON.stringify(rest).length).toBeLessThan(200_000);
  });

  it("puts an earlier invocation's agents first, and still keeps no more", () => {
    const next = new AgentTally();
    next.judged(flagged(0, 'critical'), 0);
    next.failed(agent(1), new KubeError('forbidden', 'create', 'pods/exec', 'cilium-1', 403), 1);
    next.failed(agent(2), new Error('a seventh cause'), 2);
    const both = next.after(found, ['later-node'], undefined);
    expect(both.done).toEqual(['done-node', 'later-node']);
    expect(both.misplaced.count).toBe(found.misplaced.count + 1);
    expect(both.misplaced.first).toEqual(found.misplaced.first);
    const forbidden = both.failed.find((group) => group.cause === 'forbidden: create pods/exec');
    expect(forbidden?.count).toBe(4_001);
    expect(forbidden?.first.map((failed) => failed.node)).toEqual([node(4), node(9), node(14)]);
    expect(both.failed).toHaveLength(CAUSES_KEPT + 1);
    expect(both.failed.at(-1)?.count).toBe((found.failed.at(-1)?.count ?? 0) + 1);
  });
});
