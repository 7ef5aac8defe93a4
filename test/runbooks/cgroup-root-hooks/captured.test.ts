import { describe, expect, it } from 'vitest';
import { readAgentFacts } from '../../../runbooks/cgroup-root-hooks/agent-facts.ts';
import { parseCgroupShow, parseCgroupTree } from '../../../runbooks/cgroup-root-hooks/index.ts';
import { HOOKS_ALSO_NESTED, judgePlacement } from '../../../runbooks/cgroup-root-hooks/placement.ts';
import type { ExecResult } from '../../../src/cluster/types.ts';
import { captures, manifest } from '../../sim/conformance/captures.ts';
import { AGENT, agentAnswering } from './agent-fixture.ts';

/**
 * The runbook's readers and verdict over what the real bpftool printed (test/fixtures/captured,
 * made by `npm run capture` on a real cgroup v2 with real programs attached). The kit takes each
 * situation in a private cgroup namespace whose root is a scratch cgroup standing for the node's
 * root, so for the host-view situations `stat -c %i` is answered `1`, as it is on a node; every
 * other command is answered with its capture, byte for byte.
 */
interface Expected {
  verdict: 'pass' | 'SOCKET_LB_HOOKS_NOT_ON_ROOT' | 'SOCKET_LB_HOOKS_MISSING';
  nestedPath?: string;
  info?: string;
}

const ROOT = manifest.cgroupMount;
const cgroup = captures('cgroup') as (ReturnType<typeof captures>[number] & {
  view: 'host' | 'agent';
  expected: Expected | null;
})[];

const answer = (stdout: string, stderr: string, exitCode: number): ExecResult => ({
  stdout: Buffer.from(stdout),
  stderr: Buffer.from(stderr),
  exitCode,
});

/** One situation's commands as an agent answers them. */
function agentIn(situation: string, inode?: string) {
  const table = Object.fromEntries(
    cgroup
      .filter((capture) => capture.situation === situation)
      .map((capture) => [
        capture.command.join(' '),
        answer(capture.stdout, capture.stderr, capture.exitCode),
      ]),
  );
  if (inode) table[`stat -c %i ${ROOT}`] = answer(inode, '', 0);
  return agentAnswering(table);
}

const hostSituations = [
  ...new Map(
    cgroup
      .filter((capture) => capture.view === 'host' && capture.expected)
      .map((capture) => [capture.situation, capture.expected as Expected]),
  ),
];

describe('the cgroup check on real bpftool captures', () => {
  it('has every situation the issue names', () => {
    expect(hostSituations.map(([situation]) => situation).sort()).toEqual(
      expect.arrayContaining([
        'device-filters-only',
        'hooks-nested-only',
        'hooks-on-root',
        'hooks-root-and-nested',
        'nothing-attached',
      ]),
    );
  });

  it.each(hostSituations)('%s: the verdict the tools mean', async (situation, expected) => {
    const facts = await readAgentFacts(agentIn(situation, '1\n'), AGENT, ROOT);
    const finding = judgePlacement(facts);
    if (expected.verdict === 'pass') {
      if (expected.info) {
        expect(finding?.code).toBe(HOOKS_ALSO_NESTED);
        expect(finding?.severity).toBe('info');
        expect(finding?.message).toContain(`${ROOT}${expected.nestedPath}`);
      } else expect(finding).toBeUndefined();
      return;
    }
    expect(finding?.code).toBe(expected.verdict);
    if (expected.nestedPath) expect(finding?.message).toContain(`${ROOT}${expected.nestedPath}`);
  });

  it("flags the agent's own view from a private cgroup namespace by its inode, whatever the walk shows", async () => {
    const facts = await readAgentFacts(agentIn('hooks-nested-only-agent-view'), AGENT, ROOT);
    expect(facts.inode).not.toBe(1);
    expect(facts.namespace.host).toBe(false);
    expect(judgePlacement(facts)?.code).toBe('SOCKET_LB_HOOKS_NOT_ON_ROOT');
  });

  /** Programs the tool printed: a JSON object with an id, or a text line that starts with one. */
  const printed = (output: string) => (output.match(/"id":/g) ?? output.match(/^ *\d+ /gm) ?? []).length;

  const listings = cgroup.filter((capture) => capture.command[0] === 'bpftool');
  it.each(listings.map((capture) => [capture.situation, capture.command.join(' '), capture] as const))(
    '%s: %s reads every program it lists, an empty answer as none',
    (_situation, _command, capture) => {
      const path = capture.command.find((arg) => arg.startsWith('/')) as string;
      const read = capture.command.includes('show')
        ? parseCgroupShow(capture.stdout, path)
        : parseCgroupTree(capture.stdout);
      expect(read.cgroups.flatMap((entry) => entry.programs)).toHaveLength(printed(capture.stdout));
    },
  );
});
