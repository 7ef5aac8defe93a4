import { describe, expect, it } from 'vitest';
import { parseCgroupTree } from '../../../runbooks/cgroup-root-hooks/index.ts';
import { HEALTHY, Judgements } from '../../../runbooks/cgroup-root-hooks/judgements.ts';
import {
  type AgentCgroupFacts,
  HOOKS_NOT_ON_ROOT,
  placementEvidence,
} from '../../../runbooks/cgroup-root-hooks/placement.ts';
import { AGENT, ciliumPrograms, ROOT } from './agent-fixture.ts';

/** Cilium's ten hooks at the walk's root, as `bpftool -j cgroup tree` prints them. */
const TREE = parseCgroupTree(
  JSON.stringify([
    {
      cgroup: ROOT,
      programs: ciliumPrograms(0, 10, 10),
    },
  ]),
);

/** An agent on `node`; `inode` 1 is the host's root, anything else its own container's cgroup. */
function facts(node: string, inode = 1): AgentCgroupFacts {
  return {
    agent: { ...AGENT, node },
    root: ROOT,
    inode,
    fsType: 'cgroup2fs',
    namespace: { inode: inode === 1 ? 4026531835 : 4026532417, host: inode === 1 },
    tree: TREE,
    links: { links: [] },
  };
}

describe('Judgements: what the fan-out keeps of each agent', () => {
  it('keeps nothing of a healthy agent but that it was healthy', () => {
    const judgements = new Judgements();
    for (let index = 0; index < 1_000; index++)
      expect(judgements.judge(facts(`node-${index}`), index)).toBe(HEALTHY);
  });

  it("keeps a flagged agent's findings and its evidence", () => {
    const misplaced = facts('node-7', 48213);
    const judged = new Judgements().judge(misplaced, 7);
    expect(judged).toEqual({
      node: 'node-7',
      findings: [expect.objectContaining({ code: HOOKS_NOT_ON_ROOT, target: 'node-7' })],
      evidence: placementEvidence(misplaced),
    });
  });

  it("keeps the first healthy agent's evidence, in the agents' order, whatever order they finish in", () => {
    const judgements = new Judgements();
    expect(judgements.sample).toBeUndefined();
    judgements.judge(facts('node-5'), 5);
    judgements.judge(facts('node-1', 48213), 1);
    judgements.judge(facts('node-2'), 2);
    judgements.judge(facts('node-9'), 9);
    expect(judgements.sample).toEqual(placementEvidence(facts('node-2')));
  });
});
