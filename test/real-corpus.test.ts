import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCgroupTree } from '../runbooks/cgroup-root-hooks/cgroup-tree.ts';
import { HOOKS_MISSING, HOOKS_NOT_ON_ROOT, judgePlacement } from '../runbooks/cgroup-root-hooks/placement.ts';
import { parseSocketLbStatus } from '../runbooks/cgroup-root-hooks/socket-lb.ts';
import { parseDrops } from '../runbooks/host-identity/drops.ts';
import { hostMarkState } from '../runbooks/host-identity/host-mark.ts';
import { parseIptablesSave } from '../runbooks/host-identity/iptables-save.ts';
import { parseCiliumHealth } from '../runbooks/tunnel-datapath/health.ts';
import { judgeReport, pathFinding } from '../runbooks/tunnel-datapath/paths.ts';

/**
 * Outputs real users and maintainers published (test/fixtures/real, each with its source), run
 * through the readers and verdicts the runbooks use. A healthy sample raises nothing; a broken one
 * gets the right code; a form the runbook does not read is a clear error, never a healthy verdict.
 */
interface Sample {
  file: string;
  kind: string;
  source: string;
  expect: Record<string, unknown> & Record<string, unknown>[];
}

const ROOT = new URL('./fixtures/real/', import.meta.url);
const corpus: Sample[] = JSON.parse(readFileSync(new URL('index.json', ROOT), 'utf8'));
const read = (sample: Sample) => readFileSync(new URL(sample.file, ROOT), 'utf8');
const ofKind = (kind: string) =>
  corpus.filter((sample) => sample.kind === kind).map((s) => [s.file, s] as const);

const AGENT = { name: 'cilium-x', namespace: 'kube-system', uid: 'u', node: 'node-a', ready: true };

describe('the corpus', () => {
  it('has real samples of every kind, each with its source', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(22);
    expect(new Set(corpus.map((sample) => sample.kind))).toEqual(
      new Set(['bpftool-cgroup-tree', 'iptables-save', 'cilium-health', 'cilium-status', 'monitor-drops']),
    );
    for (const sample of corpus) {
      expect(sample.source).toMatch(/^https?:\/\//);
      expect(
        readFileSync(new URL(sample.file.replace(/\.(txt|json)$/, '.source.md'), ROOT), 'utf8'),
      ).toContain('http');
    }
  });
});

describe('bpftool cgroup tree, real outputs', () => {
  it.each(ofKind('bpftool-cgroup-tree'))('%s', (_file, sample) => {
    const expected = sample.expect as unknown as {
      rootPath: string;
      socketHooksOnRoot: string[];
      socketHooksBelowRoot: { cgroup: string; hooks: string[] }[];
      healthy: boolean | null;
    };
    const tree = parseCgroupTree(read(sample));
    const onRoot = tree.socketHooks
      .filter((hook) => hook.cgroup === expected.rootPath)
      .map((hook) => hook.hook);
    expect(onRoot).toEqual(expected.socketHooksOnRoot);
    const below = tree.socketHooks.filter((hook) => hook.cgroup !== expected.rootPath);
    expect(
      expected.socketHooksBelowRoot.map(({ cgroup }) => ({
        cgroup,
        hooks: below.filter((hook) => hook.cgroup === cgroup).map((hook) => hook.hook),
      })),
    ).toEqual(expected.socketHooksBelowRoot);

    // As the runbook judges it on a node whose walk starts at the host's cgroup root (inode 1).
    const codes = judgePlacement({
      agent: AGENT,
      root: expected.rootPath,
      inode: 1,
      fsType: 'cgroup2fs',
      namespace: { inode: 4026531835, host: true },
      tree,
      links: { links: [] },
    }).map((finding) => finding.code);
    if (expected.healthy === true) expect(codes).toEqual([]);
    if (expected.healthy === false) expect(codes).toEqual([HOOKS_MISSING]);
    if (expected.socketHooksBelowRoot.length > 0) expect(codes).toEqual([HOOKS_NOT_ON_ROOT]);
  });
});

describe('cilium-health, real outputs', () => {
  it.each(ofKind('cilium-health'))('%s', (file, sample) => {
    const output = read(sample);
    if (!file.endsWith('.json')) {
      // Text: the runbook asks for -o json; text must be an error naming the command, not a pass.
      expect(() => parseCiliumHealth(output)).toThrow(/^cilium-health status -o json: /);
      return;
    }
    const expected = sample.expect as unknown as { local: string; hostIcmpFailed: string[]; nodes: number };
    const report = parseCiliumHealth(output);
    expect(report.nodes).toHaveLength(expected.nodes);
    const peers = new Map(report.nodes.map((node) => [node.node, true]));
    const { paths, missing } = judgeReport(expected.local, report, peers);
    expect(missing).toEqual([]);
    expect(paths.map((path) => path.to)).toEqual(expected.hostIcmpFailed);
    for (const path of paths) {
      const finding = pathFinding(path, 'udp/8472 (VXLAN)', 'cilium-health status --probe');
      if (path.to === expected.local) {
        // The node failing to reach itself is said to be local, never dropped.
        expect(finding.code).toBe('HEALTH_SELF_PROBE_FAILED');
        expect(finding.message).toContain('the local node');
        continue;
      }
      expect(finding.code).toBe('TUNNEL_PATH_DOWN');
      // This report has no endpoint results: the verdict must not claim the endpoint answers.
      expect(finding.message).toContain('its health endpoint was not probed');
    }
  });
});

describe('cilium status, real outputs', () => {
  it.each(ofKind('cilium-status'))(
    '%s is text: a clear error naming the command, never a verdict',
    (_file, sample) => {
      expect(() => parseSocketLbStatus(read(sample))).toThrow(
        /^cilium-dbg status -o json printed JSON that does not parse/,
      );
    },
  );
});

describe('iptables, real outputs', () => {
  it.each(ofKind('iptables-save'))(
    '%s cannot show the host mark rule: it says so, never "missing"',
    (_file, sample) => {
      expect(sample.expect.hostMarkRule).toBeNull();
      expect(() => hostMarkState(parseIptablesSave(read(sample)))).toThrow(/iptables-save output/);
    },
  );
});

describe('monitor and Hubble drops, real outputs', () => {
  it.each(ofKind('monitor-drops'))('%s', (_file, sample) => {
    const drops = parseDrops(read(sample));
    const expected = sample.expect as unknown as {
      reason: string;
      srcIdentity: number | null;
      srcIp: string;
      dstIp?: string;
      dst?: string;
      srcPort?: number;
      dstPort?: number;
    }[];
    expect(drops).toHaveLength(expected.length);
    drops.forEach((drop, index) => {
      const want = expected[index] as (typeof expected)[number];
      expect(drop.policyDenied).toBe(/policy[ -]/i.test(want.reason));
      expect(drop.sourceIdentity).toBe(want.srcIdentity ?? undefined);
      expect(drop.source?.ip).toBe(want.srcIp);
      if (want.srcPort !== undefined) expect(drop.source?.port).toBe(want.srcPort);
      expect(drop.destination?.ip).toBe(want.dstIp ?? want.dst);
      if (want.dstPort !== undefined) expect(drop.destination?.port).toBe(want.dstPort);
    });
  });
});
