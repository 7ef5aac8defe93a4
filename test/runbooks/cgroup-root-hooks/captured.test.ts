import { describe, expect, it } from 'vitest';
import { readAgentFacts } from '../../../runbooks/cgroup-root-hooks/agent-facts.ts';
import { parseLinkShow } from '../../../runbooks/cgroup-root-hooks/cgroup-links.ts';
import { parseCgroupShow, parseCgroupTree } from '../../../runbooks/cgroup-root-hooks/index.ts';
import { HOOKS_ALSO_NESTED, judgePlacement } from '../../../runbooks/cgroup-root-hooks/placement.ts';
import type { ExecResult } from '../../../src/cluster/types.ts';
import { type Capture, captures, manifest } from '../../sim/conformance/captures.ts';
import { AGENT, agentAnswering } from './agent-fixture.ts';

/**
 * The runbook's readers and verdict over what the real tools printed (test/fixtures/captured,
 * made by `npm run capture` on a real cgroup v2 with real programs attached, with each bpftool
 * build in the manifest). The kit takes each situation in a private cgroup namespace whose root
 * is a scratch cgroup standing for the node's root, so where that root is cgroup2, `stat -c %i`
 * is answered `1`, as it is on a node; every other command is answered with its capture, byte for
 * byte: the build's own bpftool output, the rest from the system build's run.
 */
interface Expected {
  verdict:
    | 'pass'
    | 'SOCKET_LB_HOOKS_NOT_ON_ROOT'
    | 'SOCKET_LB_HOOKS_ON_REMOVED_CGROUP'
    | 'SOCKET_LB_HOOKS_MISSING'
    | 'CGROUP_ROOT_NOT_CGROUP2'
    | 'could-not-check';
  nestedPath?: string;
  info?: string;
  hooks?: string[];
}

type CgroupCapture = Capture & { view: 'host' | 'agent'; bpftool: string | null; expected: Expected | null };

const ROOT = manifest.cgroupMount;
const SYSTEM_BUILD = manifest.bpftool;
const cgroup = captures('cgroup') as CgroupCapture[];
const line = (capture: Capture) => capture.command.join(' ');

const answer = (capture: Capture): ExecResult => ({
  stdout: Buffer.from(capture.stdout),
  stderr: Buffer.from(capture.stderr),
  exitCode: capture.exitCode,
});

/** One situation's captures as one agent with one bpftool build answers them. */
function capturesOf(situation: string, build: string): CgroupCapture[] {
  return cgroup.filter(
    (capture) => capture.situation === situation && (capture.bpftool === build || capture.bpftool === null),
  );
}

function agentIn(situation: string, build = SYSTEM_BUILD) {
  const own = capturesOf(situation, build);
  const table = Object.fromEntries(own.map((capture) => [line(capture), answer(capture)]));
  const fsType = own.find((capture) => line(capture) === `stat -f -c %T ${ROOT}`);
  if (fsType?.stdout === 'cgroup2fs\n')
    table[`stat -c %i ${ROOT}`] = { stdout: Buffer.from('1\n'), stderr: Buffer.alloc(0), exitCode: 0 };
  return agentAnswering(table);
}

/** The script's commands whose failure stops the check, in the order it runs them. */
const SCRIPT_ORDER = [
  `stat -c %i ${ROOT}`,
  `stat -f -c %T ${ROOT}`,
  'readlink /proc/self/ns/cgroup',
  `bpftool cgroup tree ${ROOT}`,
];

/** Each host situation with a verdict, with every bpftool build it was captured with. */
const cases = [
  ...new Map(
    cgroup
      .filter((capture) => capture.view === 'host' && capture.expected && capture.bpftool)
      .map((capture) => [
        `${capture.situation} (${capture.bpftool})`,
        [capture.situation, capture.bpftool as string, capture.expected as Expected] as const,
      ]),
  ).values(),
];

describe('the cgroup check on real captures', () => {
  it('has every situation the issue names, each with more than one bpftool build', () => {
    const situations = new Set(cases.map(([situation]) => situation));
    for (const name of [
      'hooks-on-root',
      'hooks-nested-only',
      'hooks-root-and-nested',
      'device-filters-only',
      'nothing-attached',
      'foreign-named-on-root',
      'foreign-unnamed-on-root',
      'legacy-none-on-root',
      'legacy-multi-on-root',
      'legacy-override-on-root',
      'legacy-none-nested-only',
      'legacy-multi-nested-only',
      'legacy-override-nested-only',
      'split-root-and-scope',
      'removed-scope',
      'removed-split',
      'root-tmpfs',
      'bpftool-unprivileged',
      'bpftool-missing-path',
      'bpftool-absent',
    ])
      expect(situations).toContain(name);
    expect(manifest.bpftoolBuilds.map((build) => build.version)).toEqual([
      'bpftool v7.1.0',
      'bpftool v5.10.223',
      'bpftool v7.5.0',
    ]);
    expect(cases.filter(([situation]) => situation === 'removed-split')).toHaveLength(3);
  });

  it.each(cases.map(([situation, build, expected]) => [situation, build, expected] as const))(
    '%s with %s: the verdict the tools mean',
    async (situation, build, expected) => {
      const agent = agentIn(situation, build);
      if (expected.verdict === 'could-not-check') {
        // What the first failing command (stat, or bpftool's text form after -j failed) said on
        // stderr is the reason given, never "no programs".
        const own = capturesOf(situation, build);
        const failed = SCRIPT_ORDER.map((command) => own.find((capture) => line(capture) === command)).find(
          (capture) => capture && capture.exitCode !== 0,
        );
        await expect(readAgentFacts(agent, AGENT, ROOT)).rejects.toThrow(
          failed?.stderr.trim() ?? 'no failure',
        );
        return;
      }
      const findings = judgePlacement(await readAgentFacts(agent, AGENT, ROOT));
      if (expected.verdict === 'pass') {
        if (expected.info) {
          expect(findings.map((f) => [f.code, f.severity])).toEqual([[HOOKS_ALSO_NESTED, 'info']]);
          expect(findings[0]?.message).toContain(`${ROOT}${expected.nestedPath}`);
        } else expect(findings).toEqual([]);
        return;
      }
      expect(findings.map((f) => f.code)).toEqual([expected.verdict]);
      const message = findings[0]?.message ?? '';
      if (expected.nestedPath) expect(message).toContain(`${ROOT}${expected.nestedPath}`);
      if (expected.verdict === 'SOCKET_LB_HOOKS_NOT_ON_ROOT' && expected.hooks)
        expect(message).toContain(
          `only below it: ${expected.hooks.join(', ')} on ${ROOT}${expected.nestedPath}.`,
        );
      if (expected.verdict === 'SOCKET_LB_HOOKS_ON_REMOVED_CGROUP') {
        expect(message).toContain(
          `links for ${expected.hooks?.join(', ')} are attached to a cgroup that is not in the tree`,
        );
        for (const hook of expected.hooks ?? []) {
          const name = `cil_sock${hook.slice(-1)}_${hook.slice(0, -1)}`;
          expect(message).toMatch(new RegExp(`link \\d+ \\(${name}, prog \\d+, cgroup id \\d+\\)`));
        }
      }
    },
  );

  it("flags the agent's own view from a private cgroup namespace by its inode, whatever the walk shows", async () => {
    // The agent view has no link list of its own: the node's is the host view's.
    const links = cgroup.find(
      (capture) =>
        capture.situation === 'hooks-nested-only' &&
        capture.bpftool === SYSTEM_BUILD &&
        line(capture) === 'bpftool -j -f link show',
    );
    if (!links) throw new Error('no link capture');
    const facts = await readAgentFacts(
      agentAnswering({
        ...Object.fromEntries(
          cgroup
            .filter((capture) => capture.situation === 'hooks-nested-only-agent-view')
            .map((capture) => [line(capture), answer(capture)]),
        ),
        [line(links)]: answer(links),
      }),
      AGENT,
      ROOT,
    );
    expect(facts.inode).not.toBe(1);
    expect(facts.namespace.host).toBe(false);
    expect(judgePlacement(facts).map((f) => f.code)).toEqual(['SOCKET_LB_HOOKS_NOT_ON_ROOT']);
  });

  /** Programs or links the tool printed: a JSON object with an id, or a text line that starts with one. */
  const printed = (output: string) => (output.match(/"id":/g) ?? output.match(/^ *\d+:? /gm) ?? []).length;

  const listings = cgroup.filter((capture) => capture.command[0] === 'bpftool' && capture.exitCode === 0);
  it.each(listings.map((capture) => [capture.situation, capture.bpftool, line(capture), capture] as const))(
    '%s (%s): %s reads every program or link it lists, an empty answer as none',
    (_situation, _build, _command, capture) => {
      if (capture.command.includes('link')) {
        if (capture.command.includes('-j'))
          expect(parseLinkShow(capture.stdout)).toHaveLength(printed(capture.stdout));
        return;
      }
      const path = capture.command.find((arg) => arg.startsWith('/')) as string;
      const read = capture.command.includes('show')
        ? parseCgroupShow(capture.stdout, path)
        : parseCgroupTree(capture.stdout);
      expect(read.cgroups.flatMap((entry) => entry.programs)).toHaveLength(printed(capture.stdout));
    },
  );

  const jsonFailures = cgroup.filter(
    (capture) =>
      capture.command[0] === 'bpftool' &&
      capture.command.includes('-j') &&
      capture.exitCode !== 0 &&
      capture.stdout !== '',
  );
  it.each(
    jsonFailures.map((capture) => [capture.situation, capture.bpftool, line(capture), capture] as const),
  )(
    '%s (%s): %s failing in JSON mode is an error with its words, never "nothing attached"',
    (_situation, _build, _command, capture) => {
      const read = () =>
        capture.command.includes('link')
          ? parseLinkShow(capture.stdout)
          : capture.command.includes('show')
            ? parseCgroupShow(capture.stdout, ROOT)
            : parseCgroupTree(capture.stdout);
      const value = JSON.parse(capture.stdout) as { error: string } | { error: string }[];
      const error = (Array.isArray(value) ? value.at(-1) : value)?.error;
      expect(error).toBeTruthy();
      expect(read).toThrow(`bpftool: ${error}`);
    },
  );
});
